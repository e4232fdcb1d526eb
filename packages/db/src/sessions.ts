import { randomUUID } from 'node:crypto';
import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { Drizzle } from './database';
import { ownedRows } from './owned-rows';
import { type SessionRow, sessions } from './schema';
import { isUuid } from './users';

export interface NewSession {
  session_type: string;
  title: string;
  url?: string | null;
  status?: string;
  description?: string | null;
  settings?: Record<string, unknown>;
}

export interface SessionFilter {
  session_type?: string;
  status?: string;
  limit: number;
  offset: number;
}

/** Every query is scoped to its owner: another user's session does not exist for you. */
export function sessionsRepository(orm: Drizzle) {
  const rows = ownedRows(orm, sessions);
  return {
    async create(userId: string, input: NewSession): Promise<SessionRow> {
      const [row] = await orm
        .insert(sessions)
        .values({
          id: randomUUID(),
          user_id: userId,
          session_type: input.session_type,
          title: input.title,
          url: input.url ?? null,
          status: input.status ?? 'ACTIVE',
          description: input.description ?? null,
          settings: input.settings ?? {},
        })
        .returning();
      return row;
    },
    async list(userId: string, filter: SessionFilter): Promise<SessionRow[]> {
      const conditions: SQL[] = [eq(sessions.user_id, userId)];
      if (filter.session_type) conditions.push(eq(sessions.session_type, filter.session_type));
      if (filter.status) conditions.push(eq(sessions.status, filter.status));
      return orm
        .select()
        .from(sessions)
        .where(and(...conditions))
        .orderBy(desc(sessions.created_at), desc(sessions.id))
        .limit(filter.limit)
        .offset(filter.offset);
    },
    get: (userId: string, id: string): Promise<SessionRow | undefined> => rows.get(userId, id),
    update: (userId: string, id: string, patch: Partial<NewSession>): Promise<SessionRow | undefined> =>
      rows.update(userId, id, patch),
    async delete(userId: string, id: string): Promise<SessionRow | undefined> {
      if (!isUuid(id)) return undefined;
      const [row] = await orm.delete(sessions).where(rows.mine(userId, id)).returning();
      return row;
    },
  };
}
export type SessionsRepository = ReturnType<typeof sessionsRepository>;
