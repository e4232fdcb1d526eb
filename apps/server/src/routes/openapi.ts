import type { FastifyInstance } from 'fastify';
import type { Services } from '../app-services';
import { openApiDocument } from '../openapi/openapi';

export type OpenApiRouteServices = { config: Pick<Services['config'], 'version'> };

/** GET /api/openapi.json: the REST API described (docs/CI.md#the-run-api), built once. */
export async function openApiRoutes(app: FastifyInstance, services: OpenApiRouteServices) {
  const document = openApiDocument(services.config.version);
  app.get('/api/openapi.json', async () => document);
}
