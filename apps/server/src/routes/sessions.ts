import type { SessionRow } from '@argus/db';
import {
  IdParamsSchema,
  type Session,
  SessionCreateSchema,
  SessionListQuerySchema,
  type SessionType,
  SessionUpdateSchema,
} from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../app-services';
import { AppError } from '../errors';
import { currentUser } from '../plugins/authenticate';
import { parseWith } from '../validation';

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

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type SessionRouteServices = Pick<Services, 'repos'>;

/** The sessions endpoints of docs/PRODUCT.md#http-api: every route owner-scoped; another user's session answers 404 like a missing one. */
export async function sessionRoutes(app: FastifyInstance, services: SessionRouteServices) {
  const { sessions } = services.repos;
  app.addHook('preHandler', app.requireUser);

  app.post('/', async (request, reply) => {
    const body = parseWith(SessionCreateSchema, request.body, 'body');
    const row = await sessions.create(currentUser(request).id, body);
    return reply.code(201).send(toApiSession(row));
  });

  app.get('/', async (request): Promise<Session[]> => {
    const query = parseWith(SessionListQuerySchema, request.query, 'query');
    const rows = await sessions.list(currentUser(request).id, query);
    return rows.map(toApiSession);
  });

  app.get('/:id', async (request): Promise<Session> => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const row = await sessions.get(currentUser(request).id, id);
    if (!row) throw new AppError('SESSION_NOT_FOUND');
    return toApiSession(row);
  });

  app.put('/:id', async (request): Promise<Session> => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const body = parseWith(SessionUpdateSchema, request.body, 'body');
    const row = await sessions.update(currentUser(request).id, id, body);
    if (!row) throw new AppError('SESSION_NOT_FOUND');
    return toApiSession(row);
  });

  app.delete('/:id', async (request): Promise<Session> => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const row = await sessions.delete(currentUser(request).id, id);
    if (!row) throw new AppError('SESSION_NOT_FOUND');
    return toApiSession(row);
  });
}
