import { ApiTokenCreatedSchema, ApiTokenCreateSchema, ApiTokenSchema, IdParamsSchema } from '@argus/protocol';
import { z } from 'zod';
import type { Services } from '../app-services';
import { routeGroup, routeOf, routePlugin } from './route-group';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type TokenRouteServices = Pick<Services, 'apiTokens'>;

/**
 * Personal API tokens (Settings → API tokens, docs/CI.md#api-tokens): list, create (the value is in
 * this one answer), revoke. Only a signed-in person manages tokens: an API token, whatever its scope,
 * is refused here, so a leaked token cannot mint others.
 */
const route = routeOf<TokenRouteServices>();

export const TOKEN_ROUTES = routeGroup('/api/tokens', [
  route({
    method: 'GET',
    path: '/',
    summary: 'List API tokens (never their values)',
    tag: 'API tokens',
    auth: 'login',
    response: z.array(ApiTokenSchema),
    handle: async ({ user }, { apiTokens }) => apiTokens.list(user.id),
  }),
  route({
    method: 'POST',
    path: '/',
    summary: 'Create an API token: the answer holds its value, the only time it is given',
    tag: 'API tokens',
    auth: 'login',
    body: ApiTokenCreateSchema,
    status: 201,
    response: ApiTokenCreatedSchema,
    handle: async ({ user, body }, { apiTokens }) => apiTokens.create(user.id, body),
  }),
  route({
    method: 'DELETE',
    path: '/:id',
    summary: 'Revoke an API token',
    tag: 'API tokens',
    auth: 'login',
    params: IdParamsSchema,
    response: ApiTokenSchema,
    handle: async ({ user, params }, { apiTokens }) => apiTokens.revoke(user.id, params.id),
  }),
]);

export const tokenRoutes = routePlugin(TOKEN_ROUTES);
