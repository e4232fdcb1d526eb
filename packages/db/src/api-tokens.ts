import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Drizzle } from './database';
import { ownedRows } from './owned-rows';
import { type ApiTokenRow, apiTokens, type UserRow, users } from './schema';
import { isUuid } from './users';

export type NewApiToken = Pick<ApiTokenRow, 'name' | 'scope' | 'token_hash' | 'hint' | 'expires_at'>;

/** Personal API tokens (docs/CI.md#api-tokens): only each token's hash is stored. */
export function apiTokensRepository(orm: Drizzle) {
  const owned = ownedRows(orm, apiTokens);
  return {
    create: (userId: string, input: NewApiToken): Promise<ApiTokenRow> => owned.add(userId, input),
    /** The user's tokens, newest first, revoked ones included (they say when). */
    async list(userId: string): Promise<ApiTokenRow[]> {
      return orm
        .select()
        .from(apiTokens)
        .where(eq(apiTokens.user_id, userId))
        .orderBy(desc(apiTokens.created_at), desc(apiTokens.id));
    },
    /** Marks the user's token revoked; false when it is not theirs (or does not exist). */
    async revoke(userId: string, id: string): Promise<ApiTokenRow | undefined> {
      if (!isUuid(id)) return undefined;
      const [row] = await orm
        .update(apiTokens)
        .set({ revoked_at: new Date() })
        .where(and(owned.mine(userId, id), isNull(apiTokens.revoked_at)))
        .returning();
      return row ?? (await owned.get(userId, id));
    },
    get: (userId: string, id: string): Promise<ApiTokenRow | undefined> => owned.get(userId, id),
    /** The token with this hash and its owner, whatever its state (the caller says why it is refused). */
    async findByHash(hash: string): Promise<{ token: ApiTokenRow; user: UserRow } | undefined> {
      const [row] = await orm
        .select({ token: apiTokens, user: users })
        .from(apiTokens)
        .innerJoin(users, eq(users.id, apiTokens.user_id))
        .where(eq(apiTokens.token_hash, hash));
      return row;
    },
    /** Records a use, at most once per `coarseMs` per token, so each request does not write a row. */
    async touch(id: string, now: Date, coarseMs: number): Promise<void> {
      await orm
        .update(apiTokens)
        .set({ last_used_at: now })
        .where(
          and(
            eq(apiTokens.id, id),
            or(
              isNull(apiTokens.last_used_at),
              lt(apiTokens.last_used_at, new Date(now.getTime() - coarseMs)),
            ),
          ),
        );
    },
  };
}
export type ApiTokensRepository = ReturnType<typeof apiTokensRepository>;
