import {
  type SettingsResponse,
  SettingsUpdateSchema,
  TestConnectionRequestSchema,
  type TestConnectionResponse,
} from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors';
import { currentUser } from '../plugins/authenticate';
import type { Services } from '../services';
import { parseWith } from '../validation';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type SettingsRouteServices = Pick<Services, 'modelSettings'> & {
  limits: Pick<Services['limits'], 'testConnectionPerUser'>;
};

/**
 * The signed-in user's Settings (issue 9): the AI engine (provider, model, base URL, API key), the
 * Figma token and the monthly model budget. Every route is the caller's own; secrets go in and never
 * come back but masked ('sk-…a1b2'). Bodies are not logged (Fastify logs method and URL only).
 */
export async function settingsRoutes(app: FastifyInstance, services: SettingsRouteServices) {
  const { modelSettings, limits } = services;
  /** Users with a connection test waiting for its model: one at a time each (a slow or hostile base URL is held once). */
  const testing = new Set<string>();
  app.addHook('preHandler', app.requireUser);

  app.get('/', async (request): Promise<SettingsResponse> => modelSettings.view(currentUser(request).id));

  app.put('/', async (request): Promise<SettingsResponse> => {
    const body = parseWith(SettingsUpdateSchema, request.body, 'body');
    return modelSettings.update(currentUser(request).id, body);
  });

  app.post('/test-connection', async (request): Promise<TestConnectionResponse> => {
    const userId = currentUser(request).id;
    // Before the rate limit, so a refused press does not use up the minute's tests.
    if (testing.has(userId)) throw new AppError('CONNECTION_TEST_BUSY');
    const { allowed, retryAfterSeconds } = limits.testConnectionPerUser.hit(userId);
    if (!allowed)
      throw new AppError(
        'RATE_LIMITED',
        `Too many connection tests. Please try again in ${retryAfterSeconds} s.`,
        { 'retry-after': String(retryAfterSeconds) },
      );
    const body = parseWith(TestConnectionRequestSchema, request.body, 'body');
    testing.add(userId);
    try {
      return await modelSettings.testConnection(userId, body);
    } finally {
      testing.delete(userId);
    }
  });
}
