import {
  type SettingsResponse,
  SettingsUpdateSchema,
  type StorageUsage,
  TestConnectionRequestSchema,
  type TestConnectionResponse,
} from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../app-services';
import { AppError } from '../errors';
import { currentUser } from '../plugins/authenticate';
import { parseWith } from '../validation';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type SettingsRouteServices = Pick<Services, 'modelSettings'> & {
  limits: Pick<Services['limits'], 'testConnectionPerUser'>;
  repos: Pick<Services['repos'], 'retention'>;
  config: Pick<Services['config'], 'maxStoredBytesPerUser' | 'historyRetentionDays'>;
};

/**
 * The signed-in user's Settings (issue 9): the AI engine (provider, model, base URL, API key), the
 * Figma token and the monthly model budget. Every route is the caller's own; secrets go in and never
 * come back but masked ('sk-…a1b2'). Bodies are not logged (Fastify logs method and URL only).
 */
export async function settingsRoutes(app: FastifyInstance, services: SettingsRouteServices) {
  const { modelSettings, limits, repos, config } = services;
  /** Users with a connection test waiting for its model: one at a time each (a slow or hostile base URL is held once). */
  const testing = new Set<string>();
  app.addHook('preHandler', app.requireUser);

  app.get('/', async (request): Promise<SettingsResponse> => modelSettings.view(currentUser(request).id));

  // What the user keeps, counted per row as MAX_STORED_BYTES_PER_USER counts it (a blob shared by two
  // rows counts twice), and how long history is kept; the last sweep is the server's, for every user.
  app.get('/storage', async (request): Promise<StorageUsage> => {
    const totals = await repos.retention.storage(currentUser(request).id);
    const sweep = await repos.retention.lastSweep();
    return {
      screenshot_bytes: totals.screenshotBytes,
      comparison_bytes: totals.comparisonBytes,
      upload_bytes: totals.uploadBytes,
      total_bytes: totals.screenshotBytes + totals.comparisonBytes + totals.uploadBytes,
      quota_bytes: config.maxStoredBytesPerUser,
      runs: totals.runs,
      comparisons: totals.comparisons,
      oldest_run_at: totals.oldestRunAt?.toISOString() ?? null,
      retention_days: config.historyRetentionDays,
      last_sweep: sweep && {
        finished_at: sweep.finished_at.toISOString(),
        cutoff: sweep.cutoff.toISOString(),
        runs_deleted: sweep.runs_deleted,
        comparisons_deleted: sweep.comparisons_deleted,
        blobs_deleted: sweep.blobs_deleted,
        bytes_freed: sweep.bytes_freed,
      },
    };
  });

  app.put('/', async (request): Promise<SettingsResponse> => {
    const body = parseWith(SettingsUpdateSchema, request.body, 'body');
    return modelSettings.update(currentUser(request).id, body);
  });

  app.post('/test-connection', async (request): Promise<TestConnectionResponse> => {
    const userId = currentUser(request).id;
    // Before the rate limit, so a refused press does not use up the minute's tests.
    if (testing.has(userId)) throw new AppError('CONNECTION_TEST_BUSY');
    // Marked busy before the limit is awaited, so a second press meanwhile is refused as busy too.
    testing.add(userId);
    try {
      const { allowed, retryAfterSeconds } = await limits.testConnectionPerUser.hit(userId);
      if (!allowed)
        throw new AppError(
          'RATE_LIMITED',
          `Too many connection tests. Please try again in ${retryAfterSeconds} s.`,
          { 'retry-after': String(retryAfterSeconds) },
        );
      const body = parseWith(TestConnectionRequestSchema, request.body, 'body');
      return await modelSettings.testConnection(userId, body);
    } finally {
      testing.delete(userId);
    }
  });
}
