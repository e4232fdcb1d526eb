import { randomUUID } from 'node:crypto';
import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Drizzle } from './database';
import { isUuid } from './users';

// The owner-scoped reads and writes most repositories share, written once: every query of owned data
// carries the owner's id, so another user's row reads as a missing one, and an id that is not a uuid
// finds nothing rather than making PostgreSQL throw.

/** A table whose rows have their own id and an owner. */
type OwnedTable = PgTable & { id: PgColumn; user_id: PgColumn };
/** An owned table whose rows also belong to one of the owner's projects, and say when they changed. */
type ProjectOwnedTable = OwnedTable & { project_id: PgColumn; updated_at: PgColumn };

/** `table`'s rows as one user sees them: by id, and new ones made theirs. */
export function ownedRows<T extends OwnedTable>(orm: Drizzle, table: T) {
  type Row = T['$inferSelect'];
  const mine = (userId: string, id: string) => and(eq(table.id, id), eq(table.user_id, userId));
  return {
    mine,
    /** The user's row `id`; undefined when it is missing or another user's. */
    async get(userId: string, id: string): Promise<Row | undefined> {
      if (!isUuid(id)) return undefined;
      const [row] = await orm
        .select()
        .from(table as PgTable)
        .where(mine(userId, id));
      return row as Row | undefined;
    },
    /**
     * Applies `patch` to the user's row `id` (and marks it changed, when the table says when rows
     * changed), only if `condition` holds too; undefined when it is not the user's or does not hold.
     */
    async update(
      userId: string,
      id: string,
      patch: Partial<T['$inferInsert']>,
      condition?: SQL,
    ): Promise<Row | undefined> {
      if (!isUuid(id)) return undefined;
      const changed = 'updated_at' in table ? { updated_at: new Date() } : {};
      const [row] = await orm
        .update(table as PgTable)
        .set({ ...patch, ...changed } as never)
        .where(and(mine(userId, id), condition))
        .returning();
      return row as Row | undefined;
    },
    /** A new row of the user's, with a new id. */
    async add(userId: string, values: Omit<T['$inferInsert'], 'id' | 'user_id'>): Promise<Row> {
      const [row] = await orm
        .insert(table)
        .values({ ...values, id: randomUUID(), user_id: userId } as T['$inferInsert'])
        .returning();
      return row as Row;
    },
  };
}

/** `table`'s rows as one user sees them within one of their projects: changed or deleted by id. */
export function projectRows<T extends ProjectOwnedTable>(orm: Drizzle, table: T) {
  type Row = T['$inferSelect'];
  const inProject = (userId: string, projectId: string) =>
    and(eq(table.user_id, userId), eq(table.project_id, projectId));
  /** The row `id` of the user's project, if it is one. */
  const one = (userId: string, projectId: string, id: string) =>
    and(inProject(userId, projectId), eq(table.id, id));
  return {
    inProject,
    one,
    /** Applies `patch` and marks the row changed; undefined when it is not the user's project's. */
    async update(
      userId: string,
      projectId: string,
      id: string,
      patch: Partial<T['$inferInsert']>,
    ): Promise<Row | undefined> {
      if (!isUuid(projectId) || !isUuid(id)) return undefined;
      const [row] = await orm
        .update(table as PgTable)
        .set({ ...patch, updated_at: new Date() } as never)
        .where(one(userId, projectId, id))
        .returning();
      return row as Row | undefined;
    },
    /** false when the row is not the user's project's. */
    async delete(userId: string, projectId: string, id: string): Promise<boolean> {
      if (!isUuid(projectId) || !isUuid(id)) return false;
      const rows = await orm
        .delete(table as PgTable)
        .where(one(userId, projectId, id))
        .returning({ id: table.id });
      return rows.length > 0;
    },
  };
}
