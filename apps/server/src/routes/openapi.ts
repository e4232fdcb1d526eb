import type { FastifyInstance } from 'fastify';
import { openApiDocument } from '../openapi/openapi';
import type { Services } from '../services';

export type OpenApiRouteServices = { config: Pick<Services['config'], 'version'> };

/** GET /api/openapi.json: the REST API described (docs/CI.md#the-run-api), built once. */
export async function openApiRoutes(app: FastifyInstance, services: OpenApiRouteServices) {
  const document = openApiDocument(services.config.version);
  app.get('/api/openapi.json', async () => document);
}
