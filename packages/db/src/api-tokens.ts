import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Drizzle } from './database';
import type { MemberRole, OrgOfMember } from './organizations';
import { ownedRows } from './owned-rows';
import { type ApiTokenRow, apiTokens, memberships, organizations, type UserRow, users } from './schema';
import { isUuid } from './users';

export type NewApiToken = Pick<
  ApiTokenRow,
  'org_id' | 'name' | 'scope' | 'token_hash' | 'hint' | 'expires_at'
>;

/** Personal API tokens (docs/CI.md#api-tokens): only each token's hash is stored. */
export function apiTokensRepository(orm: Drizzle) {
  const owned = ownedRows(orm, apiTokens);
  return {
    create: (userId: string, input: NewApiToken): Promise<ApiTokenRow> => owned.add(userId, input),
    /**
     * The organization's tokens, newest first, revoked ones included (they say when): those acting as
     * `userId` when it is given, every member's and service account's otherwise.
     */
    async list(orgId: string, userId?: string): Promise<ApiTokenRow[]> {
      return orm
        .select()
        .from(apiTokens)
        .where(
          and(eq(apiTokens.org_id, orgId), userId === undefined ? undefined : eq(apiTokens.user_id, userId)),
        )
        .orderBy(desc(apiTokens.created_at), desc(apiTokens.id));
    },
    /**
     * Marks a token of the organization revoked (only one acting as `userId`, when given); undefined
     * when there is none such.
     */
    async revoke(orgId: string, id: string, userId?: string): Promise<ApiTokenRow | undefined> {
      if (!isUuid(id)) return undefined;
      const ours = and(
        eq(apiTokens.id, id),
        eq(apiTokens.org_id, orgId),
        userId === undefined ? undefined : eq(apiTokens.user_id, userId),
      );
      const [row] = await orm
        .update(apiTokens)
        .set({ revoked_at: new Date() })
        .where(and(ours, isNull(apiTokens.revoked_at)))
        .returning();
      if (row) return row;
      const [existing] = await orm.select().from(apiTokens).where(ours);
      return existing;
    },
    /** Revokes every open token acting as `userId` in the organization (a member removed). */
    async revokeMember(orgId: string, userId: string): Promise<number> {
      const rows = await orm
        .update(apiTokens)
        .set({ revoked_at: new Date() })
        .where(and(eq(apiTokens.org_id, orgId), eq(apiTokens.user_id, userId), isNull(apiTokens.revoked_at)))
        .returning({ id: apiTokens.id });
      return rows.length;
    },
    get: (userId: string, id: string): Promise<ApiTokenRow | undefined> => owned.get(userId, id),
    /**
     * The token with this hash, whom it acts as, and their membership of its organization (none once
     * they left), in one read, whatever the token's state (the caller says why it is refused).
     */
    async findByHash(
      hash: string,
    ): Promise<{ token: ApiTokenRow; user: UserRow; membership: OrgOfMember | undefined } | undefined> {
      const [row] = await orm
        .select({ token: apiTokens, user: users, org: organizations, role: memberships.role })
        .from(apiTokens)
        .innerJoin(users, eq(users.id, apiTokens.user_id))
        .leftJoin(
          memberships,
          and(eq(memberships.org_id, apiTokens.org_id), eq(memberships.user_id, apiTokens.user_id)),
        )
        .leftJoin(organizations, eq(organizations.id, memberships.org_id))
        .where(eq(apiTokens.token_hash, hash));
      if (!row) return undefined;
      const membership = row.org && row.role ? { org: row.org, role: row.role as MemberRole } : undefined;
      return { token: row.token, user: row.user, membership };
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
