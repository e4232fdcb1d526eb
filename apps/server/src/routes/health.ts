import { HealthResponseSchema } from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../app-services';
import { mountRoutes, routeGroup, routeOf } from './route-group';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type HealthRouteServices = Pick<Services, 'db'> & { config: Pick<Services['config'], 'version'> };

const route = routeOf<HealthRouteServices & { started: number }>();

export const HEALTH_ROUTES = routeGroup('/api/health', [
  route({
    method: 'GET',
    path: '/',
    summary: 'Health and version',
    tag: 'System',
    auth: 'none',
    response: HealthResponseSchema,
    handle: async (_input, { db, config, started }) => {
      // A health check that cannot reach its database is not healthy. It does not wait behind the
      // statements of others (PGlite runs one at a time: `ping` answers while one runs).
      await (db.ping ? db.ping() : db.exec('SELECT 1'));
      return {
        status: 'ok' as const,
        version: config.version,
        database: db.kind,
        uptime_seconds: Math.round((Date.now() - started) / 1000),
      };
    },
  }),
]);

export async function healthRoutes(app: FastifyInstance, services: HealthRouteServices) {
  mountRoutes(app, HEALTH_ROUTES, { ...services, started: Date.now() });
}
