import {
  SettingsResponseSchema,
  SettingsUpdateSchema,
  type StorageUsage,
  StorageUsageSchema,
  TestConnectionRequestSchema,
  TestConnectionResponseSchema,
} from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../app-services';
import { AppError } from '../errors';
import { mountRoutes, routeGroup, routeOf } from './route-group';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type SettingsRouteServices = Pick<Services, 'modelSettings'> & {
  limits: Pick<Services['limits'], 'testConnectionPerUser'>;
  repos: Pick<Services['repos'], 'retention'>;
  config: Pick<Services['config'], 'maxStoredBytesPerUser' | 'historyRetentionDays'>;
};

/**
 * What the user keeps, counted per row as MAX_STORED_BYTES_PER_USER counts it (a blob shared by two
 * rows counts twice), and how long history is kept; the last sweep is the server's, for every user.
 */
async function storageUsage({ repos, config }: SettingsRouteServices, userId: string): Promise<StorageUsage> {
  const totals = await repos.retention.storage(userId);
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
}

/** What the routes hold besides the services: the users with a connection test waiting for its model. */
type SettingsRouteDeps = SettingsRouteServices & { testing: Set<string> };

/**
 * The signed-in user's Settings (issue 9): the AI engine (provider, model, base URL, API key), the
 * Figma token and the monthly model budget. Every route is the caller's own; secrets go in and never
 * come back but masked ('sk-…a1b2'). Bodies are not logged (Fastify logs method and URL only).
 */
const route = routeOf<SettingsRouteDeps>();

export const SETTINGS_ROUTES = routeGroup('/api/settings', [
  route({
    method: 'GET',
    path: '/',
    summary: 'Model, Figma token (masked), budget and usage',
    tag: 'Settings',
    response: SettingsResponseSchema,
    handle: async ({ user }, { modelSettings }) => modelSettings.view(user.id),
  }),
  route({
    method: 'GET',
    path: '/storage',
    summary: 'Stored bytes and history kept, against the quota and retention',
    tag: 'Settings',
    response: StorageUsageSchema,
    handle: async ({ user }, services) => storageUsage(services, user.id),
  }),
  route({
    method: 'PUT',
    path: '/',
    summary: 'Change settings',
    tag: 'Settings',
    body: SettingsUpdateSchema,
    response: SettingsResponseSchema,
    handle: async ({ user, body }, { modelSettings }) => modelSettings.update(user.id, body),
  }),
  // One test at a time per user: a slow or hostile base URL is held once.
  route({
    method: 'POST',
    path: '/test-connection',
    summary: 'Test a model connection',
    tag: 'Settings',
    body: TestConnectionRequestSchema,
    lazyBody: true,
    response: TestConnectionResponseSchema,
    handle: async (input, { modelSettings, limits, testing }) => {
      const userId = input.user.id;
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
        return await modelSettings.testConnection(userId, input.body);
      } finally {
        testing.delete(userId);
      }
    },
  }),
]);

export async function settingsRoutes(app: FastifyInstance, services: SettingsRouteServices) {
  mountRoutes(app, SETTINGS_ROUTES, { ...services, testing: new Set() });
}
