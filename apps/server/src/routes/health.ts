import type { HealthResponse } from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../app-services';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type HealthRouteServices = Pick<Services, 'db'> & { config: Pick<Services['config'], 'version'> };

export async function healthRoutes(app: FastifyInstance, services: HealthRouteServices) {
  const started = Date.now();
  app.get('/api/health', async (): Promise<HealthResponse> => {
    // A health check that cannot reach its database is not healthy.
    await services.db.exec('SELECT 1');
    return {
      status: 'ok',
      version: services.config.version,
      database: services.db.kind,
      uptime_seconds: Math.round((Date.now() - started) / 1000),
    };
  });
}
