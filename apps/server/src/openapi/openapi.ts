import { ErrorResponseSchema } from '@argus/protocol';
import { z } from 'zod';
import { type DeclaredRoute, joinPath, type RouteGroup } from '../routes/route-group';
import { API_ROUTE_GROUPS } from './api-routes';

/**
 * The REST API as an OpenAPI 3.1 document (served at GET /api/openapi.json, docs/CI.md#the-run-api),
 * generated from the route declarations (routes/route-group.ts) that Fastify registers, with the zod
 * schemas the routes validate with, so its shapes cannot drift from theirs. Every `/api` route is in
 * it: a test compares this catalogue with the routes the app registers.
 */
export interface ApiOperation {
  summary: string;
  tag: string;
  /** Who may call it. @default 'user' (a login, or an API token whose scope covers it) */
  auth?: 'none' | 'user' | 'login';
  /** What an API token needs beyond reading (docs/CI.md#api-tokens). */
  scope?: 'run' | 'full';
  body?: z.ZodType;
  /** @default 200 */
  status?: number;
  response?: z.ZodType;
  /** An answer that is not JSON: its media type and what it holds. */
  media?: { type: string; description: string };
}

/** A declared route as the document describes it. */
function operationOf(route: DeclaredRoute): ApiOperation {
  // Routes that read the login token themselves (screenshots, design uploads) have always been
  // documented as any signed-in caller's; the document is kept as it was.
  const auth = route.auth === 'login-token' ? undefined : route.auth;
  // What scopeRefusal (plugins/authenticate.ts) asks of an API token: reads take any, writes `full`.
  const scope =
    route.scope ?? (auth === 'none' || auth === 'login' || route.method === 'GET' ? undefined : 'full');
  return {
    summary: route.summary,
    tag: route.tag,
    ...(auth && auth !== 'user' && { auth }),
    ...(scope && { scope }),
    ...(route.body && { body: route.body }),
    ...(route.status && { status: route.status }),
    ...(route.response && { response: route.response }),
    ...(route.media && { media: route.media }),
  };
}

/** Every `/api` route of `groups`, as `METHOD path` in Fastify's `:param` form. */
export function apiOperations(groups: readonly RouteGroup<never>[]): Record<string, ApiOperation> {
  const operations: Record<string, ApiOperation> = {};
  for (const group of groups) {
    for (const route of group.routes) {
      operations[`${route.method} ${joinPath(group.base, route.path)}`] = operationOf(route);
    }
  }
  return operations;
}

/** Every `/api` route the server registers, as `METHOD path` in Fastify's `:param` form. */
export const API_ROUTES: Record<string, ApiOperation> = apiOperations(API_ROUTE_GROUPS);

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;

function accessNote(op: ApiOperation): string | undefined {
  if (op.auth === 'none') return undefined;
  if (op.auth === 'login') return 'A login token only: API tokens are refused.';
  if (op.scope === 'run') return 'A login, or an API token with scope `run` or `full`.';
  if (op.scope === 'full') return 'A login, or an API token with scope `full`.';
  return 'A login, or an API token of any scope.';
}

/** The OpenAPI 3.1 document of this server's REST API. */
export function openApiDocument(version: string): Record<string, unknown> {
  const error = {
    description: 'An error: `{detail, code}`',
    content: { 'application/json': { schema: jsonSchema(ErrorResponseSchema, 'output') } },
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [key, op] of Object.entries(API_ROUTES)) {
    const [method, path] = key.split(' ') as [string, string];
    const names = [...path.matchAll(/:([A-Za-z_]+)/g)].map(([, name]) => name);
    const success = op.media
      ? { description: op.media.description, content: { [op.media.type]: {} } }
      : op.response
        ? {
            description: op.summary,
            content: { 'application/json': { schema: jsonSchema(op.response, 'output') } },
          }
        : { description: op.summary };
    const note = accessNote(op);
    const openPath = path.replace(/:([A-Za-z_]+)/g, '{$1}');
    paths[openPath] ??= {};
    paths[openPath][method.toLowerCase()] = {
      summary: op.summary,
      tags: [op.tag],
      ...(note && { description: note }),
      ...(names.length > 0 && {
        parameters: names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      }),
      ...(op.body && {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: jsonSchema(op.body, 'input') } },
        },
      }),
      ...(op.auth === 'none' && { security: [] }),
      responses: { [String(op.status ?? 200)]: success, '4XX': error, '5XX': error },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Argus API',
      version,
      description:
        'The REST API of Argus. Send `Authorization: Bearer <token>`: a login token (POST /api/auth/login) or a personal API token made in Settings (`argus_…`). Tokens never go in a URL. Errors are `{detail, code}`, with the codes of one catalogue.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths,
  };
}
