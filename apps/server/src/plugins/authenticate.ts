import type { UserRow } from '@argus/db';
import type { Action, TokenScope } from '@argus/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ApiTokenService, isApiToken } from '../auth/api-tokens';
import type { AuthService } from '../auth/auth-service';
import { AppError } from '../errors';
import { checkRole, ORG_HEADER, type OrgAccess } from '../orgs/org-access';

/** How a request was authenticated: a login (the screens) or a personal API token and its scope. */
export type Credential = { kind: 'login' } | { kind: 'api-token'; scope: TokenScope; tokenId: string };

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set by `app.requireUser`. */
    user: UserRow | null;
    /** How `user` was authenticated, set by `app.requireUser`. */
    credential: Credential | null;
  }
  interface FastifyInstance {
    /**
     * preHandler: 401 unless the request carries a valid `Authorization: Bearer` login token or API
     * token; 403 when an API token's scope does not cover the route (docs/CI.md#api-tokens).
     */
    requireUser: (request: FastifyRequest) => Promise<void>;
    /**
     * preHandler of the routes that have always taken a login token only, read by themselves
     * (screenshots, design uploads): 401 without one, and for an API token.
     */
    requireLoginToken: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyContextConfig {
    /**
     * What an API token needs to call the route: `run` for starting and stopping work (a `run` or
     * `full` token), `login` for routes only a signed-in person may call (managing tokens).
     * Unset: reads (GET) take any token, anything else a `full` one.
     */
    tokenScope?: 'run' | 'login';
    /** Error answers carry `error` beside `detail` (plugins/error-handler.ts). */
    errorField?: boolean;
    /** What the route does, from the permission table (packages/protocol/src/permissions.ts). */
    action?: Action;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token.trim() : null;
}

function requiredToken(request: FastifyRequest): string {
  const token = bearerToken(request);
  if (!token) throw new AppError('UNAUTHENTICATED', undefined, { 'www-authenticate': 'Bearer' });
  return token;
}

/** Whether a token of `scope` may call the route (its method and `tokenScope` config); the refusal's text if not. */
export function scopeRefusal(
  scope: TokenScope,
  method: string,
  needs: 'run' | 'login' | undefined,
): string | null {
  if (needs === 'login') return 'API tokens cannot manage API tokens: sign in to Argus to do this';
  const reading = method === 'GET' || method === 'HEAD';
  if (scope === 'full') return null;
  if (needs === 'run') return scope === 'run' ? null : `A ${scope} token cannot start or stop work`;
  if (reading) return null;
  return `A ${scope} token cannot change anything: this needs a full token`;
}

export function registerAuthentication(
  app: FastifyInstance,
  auth: AuthService,
  tokens: ApiTokenService,
  orgs: OrgAccess,
): void {
  app.decorateRequest('user', null);
  app.decorateRequest('credential', null);
  app.decorateRequest('org', null);
  const actionOf = (request: FastifyRequest): Action => request.routeOptions.config?.action ?? 'self';
  const wantedOrg = (request: FastifyRequest): string | undefined => {
    const header = request.headers[ORG_HEADER];
    return typeof header === 'string' ? header : undefined;
  };
  const signIn = async (request: FastifyRequest, token: string) => {
    // The user and their membership of the organization asked for, in one read.
    const { user, membership } = await auth.memberFromToken(token, wantedOrg(request)?.trim() || null);
    request.user = user;
    request.credential = { kind: 'login' };
    request.org = await orgs.resolved(user, membership, actionOf(request));
    checkRole(request.org, actionOf(request));
  };
  app.decorate('requireLoginToken', async (request: FastifyRequest) => {
    await signIn(request, requiredToken(request));
  });
  app.decorate('requireUser', async (request: FastifyRequest) => {
    const token = requiredToken(request);
    if (!isApiToken(token)) return signIn(request, token);
    const { user, membership, scope, tokenId } = await tokens.authenticate(token);
    const refusal = scopeRefusal(scope, request.method, request.routeOptions.config?.tokenScope);
    if (refusal) throw new AppError('TOKEN_SCOPE', refusal);
    request.user = user;
    request.credential = { kind: 'api-token', scope, tokenId };
    request.org = orgs.forToken(membership);
    checkRole(request.org, actionOf(request));
  });
}

/** The signed-in user of a route guarded by `requireUser`. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new AppError('UNAUTHENTICATED');
  return request.user;
}
