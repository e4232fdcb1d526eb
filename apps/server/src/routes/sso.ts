import { LoginResponseSchema, SsoCallbackQuerySchema, SsoStatusSchema } from '@argus/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../app-services';
import { audit } from '../audit/recorder';
import { AppError } from '../errors';
import type { RateLimit } from '../limits/rate-limiter';
import { HANDOFF_COOKIE, readCookie, STATE_COOKIE, setCookie } from '../sso/cookies';
import { FLOW_TTL_MS, HANDOFF_TTL_MS } from '../sso/flow-store';
import { type SsoService, ssoService } from '../sso/sso-service';
import { mountRoutes, routeGroup, routeOf } from './route-group';

/** What these routes use of the app's services (app.ts hands the plugin only these). */
export type SsoRouteServices = Pick<Services, 'auth' | 'repos'> & {
  config: Pick<Services['config'], 'oidc'>;
  limits: Pick<Services['limits'], 'loginPerIp'>;
};
type SsoRouteDeps = SsoRouteServices & { sso: SsoService };

/** Where the browser goes after the provider: the login page, which finishes or explains (docs/SSO.md). */
const LOGIN_PAGE = '/login';

async function enforce(limiter: RateLimit, key: string): Promise<void> {
  const { allowed, retryAfterSeconds } = await limiter.hit(key);
  if (!allowed) throw new AppError('RATE_LIMITED', undefined, { 'retry-after': String(retryAfterSeconds) });
}

/**
 * A browser step that failed, sent back to the login page with the code only (it says it in words):
 * these routes are navigated to, not fetched, so a JSON error would be a dead end. The detail, which
 * may name what the provider said, goes to the log.
 */
function backToLogin(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  if (!(error instanceof AppError)) throw error;
  request.log.warn({ code: error.code, detail: error.detail }, 'single sign-on refused');
  return reply.redirect(`${LOGIN_PAGE}?sso_error=${encodeURIComponent(error.code)}`, 302);
}

const route = routeOf<SsoRouteDeps>();
const redirect = (description: string) => ({ status: 302, media: { type: 'text/plain', description } });

export const SSO_ROUTES = routeGroup('/api/auth/sso', [
  route({
    method: 'GET',
    path: '/',
    summary: 'Whether single sign-on is offered, and the provider’s name (for the login page)',
    tag: 'Auth',
    auth: 'none',
    response: SsoStatusSchema,
    handle: async (_input, { sso }) => sso.status(),
  }),
  route({
    method: 'GET',
    path: '/start',
    summary: 'Begin single sign-on: redirects to the identity provider',
    tag: 'Auth',
    auth: 'none',
    ...redirect("To the provider's authorization endpoint; on a refusal, to /login?sso_error=<code>"),
    handle: async ({ request, reply }, { sso, limits }) => {
      try {
        await enforce(limits.loginPerIp, request.ip);
        const { url, state } = await sso.begin();
        setCookie(reply, STATE_COOKIE, state, FLOW_TTL_MS / 1000, sso.secureCookies());
        return reply.redirect(url.href, 302);
      } catch (error) {
        return backToLogin(request, reply, error);
      }
    },
  }),
  route({
    method: 'GET',
    path: '/callback',
    summary: 'Where the identity provider sends the browser back (OIDC_REDIRECT_URL)',
    tag: 'Auth',
    auth: 'none',
    query: SsoCallbackQuerySchema,
    ...redirect(
      'To /login?sso=complete (the sign-in waits in a one-time cookie), or /login?sso_error=<code>',
    ),
    handle: async ({ request, reply }, { sso }) => {
      const secure = sso.secureCookies();
      // The state cookie has done its work whatever happens: a sign-in is finished once.
      setCookie(reply, STATE_COOKIE, '', 0, secure);
      try {
        const query = new URL(request.url, 'http://callback.invalid').searchParams;
        const code = await sso.finish(query, readCookie(request, STATE_COOKIE));
        setCookie(reply, HANDOFF_COOKIE, code, HANDOFF_TTL_MS / 1000, secure);
        return reply.redirect(`${LOGIN_PAGE}?sso=complete`, 302);
      } catch (error) {
        return backToLogin(request, reply, error);
      }
    },
  }),
  route({
    method: 'POST',
    path: '/exchange',
    summary: "Collect a finished single sign-on's login token (its one-time cookie), as /login answers it",
    tag: 'Auth',
    auth: 'none',
    response: LoginResponseSchema,
    handle: async ({ request, reply }, { sso, limits }) => {
      await enforce(limits.loginPerIp, request.ip);
      const code = readCookie(request, HANDOFF_COOKIE);
      setCookie(reply, HANDOFF_COOKIE, '', 0, sso.secureCookies());
      const answer = await sso.collect(code);
      await audit.record(request, {
        action: 'sign_in',
        actor: { id: answer.user.id, username: answer.user.username, email: answer.user.email },
        detail: { method: 'sso' },
      });
      return answer;
    },
  }),
]);

/** Mounted at /api/auth/sso, with the service made once from what it is given. */
export async function ssoRoutes(app: FastifyInstance, deps: SsoRouteServices): Promise<void> {
  const sso = ssoService({ oidc: deps.config.oidc, repos: deps.repos, auth: deps.auth });
  mountRoutes(app, SSO_ROUTES, { ...deps, sso });
}
