import { ApiTokenCreatedSchema, ApiTokenCreateSchema, ApiTokenSchema, IdParamsSchema } from '@argus/protocol';
import { z } from 'zod';
import type { Services } from '../app-services';
import { audit } from '../audit/recorder';
import { routeGroup, routeOf, routePlugin } from './route-group';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type TokenRouteServices = Pick<Services, 'apiTokens'>;

/**
 * A member's own API tokens in the current organization (Settings → API tokens, docs/CI.md#api-tokens):
 * list, create (the value is in this one answer), revoke. A token acts with its member's role there,
 * never more; an organization's admins see and revoke every token (routes/organizations.ts). Only a signed-in person manages tokens: an API token, whatever its scope,
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
    handle: async ({ user, org }, { apiTokens }) => apiTokens.list(org.id, user.id),
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
    handle: async ({ request, user, org, body }, { apiTokens }) =>
      audit.after(request, apiTokens.create(org.id, user.id, body), (t) => ({
        action: 'token_created',
        target: t.name,
        detail: { token_id: t.id, scope: t.scope },
      })),
  }),
  route({
    method: 'DELETE',
    path: '/:id',
    summary: 'Revoke an API token',
    tag: 'API tokens',
    auth: 'login',
    params: IdParamsSchema,
    response: ApiTokenSchema,
    handle: async ({ request, user, org, params }, { apiTokens }) =>
      audit.after(request, apiTokens.revoke(org.id, params.id, user.id), (t) => ({
        action: 'token_revoked',
        target: t.name,
        detail: { token_id: t.id },
      })),
  }),
]);

export const tokenRoutes = routePlugin(TOKEN_ROUTES);
