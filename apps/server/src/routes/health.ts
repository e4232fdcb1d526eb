import type { HealthResponse } from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';

export async function healthRoutes(app: FastifyInstance, { services }: { services: Services }) {
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
