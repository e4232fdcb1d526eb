import { type ApiToken, ApiTokenCreateSchema, IdParamsSchema } from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../app-services';
import { currentUser } from '../plugins/authenticate';
import { parseWith } from '../validation';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type TokenRouteServices = Pick<Services, 'apiTokens'>;

/**
 * Personal API tokens (Settings → API tokens, docs/CI.md#api-tokens): list, create (the value is in
 * this one answer), revoke. Only a signed-in person manages tokens: an API token, whatever its scope,
 * is refused here, so a leaked token cannot mint others.
 */
export async function tokenRoutes(app: FastifyInstance, services: TokenRouteServices) {
  const { apiTokens } = services;
  const login = { config: { tokenScope: 'login' as const } };
  app.addHook('preHandler', app.requireUser);

  app.get('/', login, async (request): Promise<ApiToken[]> => apiTokens.list(currentUser(request).id));

  app.post('/', login, async (request, reply) => {
    const body = parseWith(ApiTokenCreateSchema, request.body, 'body');
    return reply.code(201).send(await apiTokens.create(currentUser(request).id, body));
  });

  app.delete('/:id', login, async (request): Promise<ApiToken> => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    return apiTokens.revoke(currentUser(request).id, id);
  });
}
