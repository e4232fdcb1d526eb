import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import { memberships, organizations, type UserRow, users } from './schema';

export interface NewUser {
  username: string;
  email: string;
  full_name?: string | null;
  password_hash: string;
}

export class UniqueViolation extends Error {
  constructor(readonly field: 'username' | 'email') {
    super(`${field} already exists`);
  }
}

/** PostgreSQL's unique_violation, as thrown by pg, PGlite, or wrapped by drizzle. */
export function uniqueViolationField(error: unknown): 'username' | 'email' | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { code?: string; constraint?: string; message?: string; cause?: unknown };
    if (e.code === '23505') {
      const where = `${e.constraint ?? ''} ${e.message ?? ''}`;
      return where.includes('email') ? 'email' : 'username';
    }
    current = e.cause;
  }
  return null;
}

export function usersRepository(orm: Drizzle) {
  return {
    async create(input: NewUser): Promise<UserRow> {
      try {
        // Every user has a personal organization with their own id (0015_organizations.sql).
        return await orm.transaction(async (tx) => {
          const [row] = await tx
            .insert(users)
            .values({ id: randomUUID(), ...input })
            .returning();
          await tx.insert(organizations).values({ id: row.id, name: row.username, personal: true });
          await tx.insert(memberships).values({ org_id: row.id, user_id: row.id, role: 'owner' });
          return row;
        });
      } catch (error) {
        const field = uniqueViolationField(error);
        if (field) throw new UniqueViolation(field);
        throw error;
      }
    },
    async findById(id: string): Promise<UserRow | undefined> {
      if (!isUuid(id)) return undefined;
      const [row] = await orm.select().from(users).where(eq(users.id, id));
      return row;
    },
    /** Login accepts either the username or the email address, in any case. */
    async findByLogin(login: string): Promise<UserRow | undefined> {
      const key = login.trim().toLowerCase();
      const [row] = await orm
        .select()
        .from(users)
        .where(sql`lower(${users.username}) = ${key} OR lower(${users.email}) = ${key}`)
        .limit(1);
      return row;
    },
    async exists(field: 'username' | 'email', value: string): Promise<boolean> {
      const column = field === 'username' ? users.username : users.email;
      const [row] = await orm
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${column}) = ${value.trim().toLowerCase()}`)
        .limit(1);
      return Boolean(row);
    },
    async setPassword(id: string, password_hash: string): Promise<void> {
      const now = new Date();
      await orm
        .update(users)
        .set({ password_hash, password_changed_at: now, updated_at: now })
        .where(eq(users.id, id));
    },
  };
}
export type UsersRepository = ReturnType<typeof usersRepository>;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are UUIDs; anything else cannot name a row (and must not reach a uuid column as a cast error). */
export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}
