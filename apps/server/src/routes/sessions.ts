import type { SessionRow } from '@argus/db';
import {
  IdParamsSchema,
  type Session,
  SessionCreateSchema,
  SessionListQuerySchema,
  SessionSchema,
  type SessionType,
  SessionUpdateSchema,
} from '@argus/protocol';
import { z } from 'zod';
import type { Services } from '../app-services';
import { AppError } from '../errors';
import { routeGroup, routeOf, routePlugin } from './route-group';

export function toApiSession(row: SessionRow): Session {
  return {
    id: row.id,
    user_id: row.user_id,
    session_type: row.session_type as SessionType,
    title: row.title,
    url: row.url,
    status: row.status as Session['status'],
    description: row.description,
    settings: row.settings ?? {},
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Another user's session answers 404 like a missing one. */
function found(row: SessionRow | undefined | null): Session {
  if (!row) throw new AppError('SESSION_NOT_FOUND');
  return toApiSession(row);
}

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type SessionRouteServices = Pick<Services, 'repos'>;

/** The sessions endpoints of docs/PRODUCT.md#http-api: every route owner-scoped. */
const route = routeOf<SessionRouteServices>();

export const SESSION_ROUTES = routeGroup('/api/sessions', [
  route({
    method: 'POST',
    path: '/',
    summary: 'Create a session',
    tag: 'Sessions',
    body: SessionCreateSchema,
    status: 201,
    response: SessionSchema,
    handle: async ({ user, body }, { repos }) => toApiSession(await repos.sessions.create(user.id, body)),
  }),
  route({
    method: 'GET',
    path: '/',
    summary: 'Sessions',
    tag: 'Sessions',
    query: SessionListQuerySchema,
    response: z.array(SessionSchema),
    handle: async ({ user, query }, { repos }) =>
      (await repos.sessions.list(user.id, query)).map(toApiSession),
  }),
  route({
    method: 'GET',
    path: '/:id',
    summary: 'A session',
    tag: 'Sessions',
    params: IdParamsSchema,
    response: SessionSchema,
    handle: async ({ user, params }, { repos }) => found(await repos.sessions.get(user.id, params.id)),
  }),
  route({
    method: 'PUT',
    path: '/:id',
    summary: 'Change a session',
    tag: 'Sessions',
    params: IdParamsSchema,
    body: SessionUpdateSchema,
    response: SessionSchema,
    handle: async ({ user, params, body }, { repos }) =>
      found(await repos.sessions.update(user.id, params.id, body)),
  }),
  route({
    method: 'DELETE',
    path: '/:id',
    summary: 'Delete a session',
    tag: 'Sessions',
    params: IdParamsSchema,
    response: SessionSchema,
    handle: async ({ user, params }, { repos }) => found(await repos.sessions.delete(user.id, params.id)),
  }),
]);

export const sessionRoutes = routePlugin(SESSION_ROUTES);
