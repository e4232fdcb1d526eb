import type { FastifyInstance } from 'fastify';
import type { Services } from '../app-services';
import { mountRoutes } from '../routes/route-group';
import { OPENAPI_ROUTES } from './api-routes';
import { openApiDocument } from './openapi';

export type OpenApiRouteServices = { config: Pick<Services['config'], 'version'> };

/** GET /api/openapi.json: the REST API described (docs/CI.md#the-run-api), built once. */
export async function openApiRoutes(app: FastifyInstance, services: OpenApiRouteServices) {
  mountRoutes(app, OPENAPI_ROUTES, { document: openApiDocument(services.config.version) });
}
