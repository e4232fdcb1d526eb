import type { UserRow } from '@argus/db';
import { type Action, routeAction } from '@argus/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { z } from 'zod';
import { currentOrg, type OrgContext } from '../orgs/org-context';
import { currentUser } from '../plugins/authenticate';
import { parseWith } from '../validation';

/**
 * One declaration per route: what it takes and answers (the shared zod schemas), who may call it, and
 * what it does. `mountRoutes` registers it with Fastify and `openapi/openapi.ts` documents it, so the
 * served document cannot drift from what the server answers.
 */

type Schema = z.ZodType | undefined;
type Parsed<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * Who may call a route:
 * - `none`: anyone (an image's signed link is checked by its route);
 * - `user`: a login, or an API token whose scope covers it (`app.requireUser`, docs/CI.md#api-tokens);
 * - `login`: a login only, API tokens refused (managing tokens, changing the password);
 * - `login-token`: a login token read by the route itself, as screenshots and design uploads always
 *   have (`app.requireLoginToken`); an API token is answered 401. @default 'user'
 */
export type RouteAuth = 'none' | 'user' | 'login' | 'login-token';

/** What a route's handler is given: the request, its parsed input, and the signed-in user. */
export interface RouteInput<P, Q, B> {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The signed-in user (a route whose `auth` is `none` has none: reading it answers 401). */
  readonly user: UserRow;
  /** The organization the request acts in, and the user's role there (orgs/org-context.ts). */
  readonly org: OrgContext;
  params: P;
  query: Q;
  body: B;
}

/** A payload (sent with `status`), nothing (an empty answer with `status`), or the reply it sent itself. */
type Answer<R extends Schema> = R extends z.ZodType ? z.output<R> | FastifyReply | undefined : unknown;

export interface RouteSpec<Deps, P extends Schema, Q extends Schema, B extends Schema, R extends Schema> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Below the group's base, in Fastify's `:param` form; `/` is the base itself. */
  path: string;
  summary: string;
  tag: string;
  auth?: RouteAuth;
  /**
   * `run`: an API token with scope `run` (or `full`) may call it, for routes that start or stop work.
   * Otherwise reads (GET) take a token of any scope, and anything else a `full` one.
   */
  scope?: 'run';
  params?: P;
  query?: Q;
  body?: B;
  /** @default 200 */
  status?: number;
  response?: R;
  /** An answer that is not JSON: its media type and what it holds. */
  media?: { type: string; description: string };
  /** Above the server's body limit (a screenshot upload). */
  bodyLimit?: number;
  /** Errors carry `error` beside `detail` (the screenshot upload's client reads it). */
  errorField?: boolean;
  /** Registered only when this answers true (a test-servers-only route); documented always. */
  registered?: () => boolean;
  /**
   * The body is parsed where the handler first reads `input.body`, not before the handler runs: for
   * checks that must come first (a rate limit counts refused attempts too). Such a handler reads
   * `input.body` after them, never in its parameter list.
   */
  lazyBody?: boolean;
  handle(input: RouteInput<Parsed<P>, Parsed<Q>, Parsed<B>>, deps: Deps): Promise<Answer<R>>;
}

/** A route as a group holds it, its input types erased. */
export type DeclaredRoute<Deps = never> = RouteSpec<Deps, Schema, Schema, Schema, Schema>;

/** Declares one route; its input types come from its schemas. */
export type RouteFactory<Deps> = <
  P extends Schema = undefined,
  Q extends Schema = undefined,
  B extends Schema = undefined,
  R extends Schema = undefined,
>(
  spec: RouteSpec<Deps, P, Q, B, R>,
) => DeclaredRoute<Deps>;

/** The routes of one plugin, below one base path; `Deps` is what their handlers use. */
export interface RouteGroup<Deps = never> {
  base: string;
  /** Other mount points of the same routes, left out of the OpenAPI document (`/auth` for the other client). */
  aliases: readonly string[];
  routes: readonly DeclaredRoute<Deps>[];
}

/** The route declarer of a group whose handlers use `Deps`: `const route = routeOf<Deps>()`. */
export function routeOf<Deps>(): RouteFactory<Deps> {
  return (spec) => spec as unknown as DeclaredRoute<Deps>;
}

export function routeGroup<Deps>(
  base: string,
  routes: DeclaredRoute<Deps>[],
  aliases: readonly string[] = [],
): RouteGroup<Deps> {
  return { base, aliases, routes };
}

/** `base` and a route's path as one URL path (`/` is the base itself). */
export function joinPath(base: string, path: string): string {
  if (!base) return path;
  return path === '/' ? base : `${base}${path}`;
}

/**
 * Where the group's paths go below the plugin's Fastify prefix: nothing when the plugin is mounted at
 * the group's base (or an alias of it), the base when it is mounted at the root.
 */
function mountPoint(prefix: string, group: Pick<RouteGroup, 'base' | 'aliases'>): string {
  if (prefix === group.base || group.aliases.includes(prefix)) return '';
  if (prefix === '') return group.base;
  throw new Error(`The routes of ${group.base} are mounted at ${prefix}: mount them at ${group.base}`);
}

/** The handler's input: params, then query, then body parsed in that order (the body maybe on first read). */
function inputOf(
  route: DeclaredRoute<unknown>,
  request: FastifyRequest,
  reply: FastifyReply,
): RouteInput<unknown, unknown, unknown> {
  const readBody = () => route.body && parseWith(route.body, request.body, 'body');
  const params = route.params && parseWith(route.params, request.params, 'path');
  const query = route.query && parseWith(route.query, request.query, 'query');
  let body = route.lazyBody ? undefined : readBody();
  let bodyRead = !route.lazyBody;
  return {
    request,
    reply,
    params,
    query,
    get user() {
      return currentUser(request);
    },
    get org() {
      return currentOrg(request);
    },
    get body() {
      if (!bodyRead) {
        body = readBody();
        bodyRead = true;
      }
      return body;
    },
  };
}

function guardOf(app: FastifyInstance, auth: RouteAuth) {
  if (auth === 'none') return undefined;
  return auth === 'login-token' ? app.requireLoginToken : app.requireUser;
}

/**
 * What `route` of `group` does, from the permission table (packages/protocol/src/permissions.ts);
 * a route the table does not name cannot be mounted.
 */
export function actionOf(
  group: Pick<RouteGroup, 'base'>,
  route: Pick<DeclaredRoute<unknown>, 'method' | 'path'>,
  table: ActionTable = routeAction,
): Action {
  const path = joinPath(group.base, route.path);
  const action = table(route.method, path);
  if (!action) {
    throw new Error(
      `${route.method} ${path} has no entry in the permission table (packages/protocol/src/permissions.ts)`,
    );
  }
  return action;
}

/** What a route does by its method and path: the permission table's, or a test's own. */
export type ActionTable = (method: string, path: string) => Action | undefined;

/** Registers each route of `group` on `app`, its handler given `deps`; `table` says what each does. */
export function mountRoutes<Deps>(
  app: FastifyInstance,
  group: RouteGroup<Deps>,
  deps: Deps,
  table: ActionTable = routeAction,
): void {
  const at = mountPoint(app.prefix, group);
  for (const route of group.routes) {
    const action = actionOf(group, route, table);
    if (route.registered && !route.registered()) continue;
    const auth = route.auth ?? 'user';
    const guard = guardOf(app, auth);
    const tokenScope = auth === 'login' ? 'login' : route.scope;
    const options: RouteOptions = {
      method: route.method,
      url: joinPath(at, route.path),
      ...(route.bodyLimit && { bodyLimit: route.bodyLimit }),
      ...(guard && { preHandler: guard }),
      config: { action, ...(tokenScope && { tokenScope }), ...(route.errorField && { errorField: true }) },
      handler: async (request, reply) => {
        const answer = await route.handle(inputOf(route, request, reply), deps);
        if (answer === reply || reply.sent) return reply;
        reply.code(route.status ?? 200);
        return answer === undefined ? reply.send() : answer;
      },
    };
    app.route(options);
  }
}

/** A Fastify plugin mounting `group`, for groups whose handlers need nothing but the services given. */
export function routePlugin<Deps>(group: RouteGroup<Deps>) {
  return async (app: FastifyInstance, deps: Deps): Promise<void> => mountRoutes(app, group, deps);
}
