import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import {
  type MembershipRow,
  memberships,
  type OrganizationRow,
  organizations,
  type UserRow,
  users,
} from './schema';
import { withStatementScope } from './statement-scope';
import { isUuid } from './users';

// Organizations and their members (docs/ORGANIZATIONS.md). Roles are checked by the server against
// the permission table (packages/protocol/src/permissions.ts); this module keeps the one rule the
// database must hold under concurrent changes: an organization always has an owner.

export type MemberRole = 'viewer' | 'runner' | 'editor' | 'admin' | 'owner';

/** An organization as one member sees it. */
export interface OrgOfMember {
  org: OrganizationRow;
  role: MemberRole;
}

/** A member, with the account they are. */
export interface MemberRow {
  user: Pick<UserRow, 'id' | 'username' | 'email' | 'full_name' | 'service'>;
  role: MemberRole;
  joined_at: Date;
}

/** Thrown when a change would leave an organization without an owner. */
export class LastOwnerError extends Error {
  constructor() {
    super('An organization must keep at least one owner');
  }
}

type Tx = Parameters<Parameters<Drizzle['transaction']>[0]>[0];

const memberColumns = {
  user: {
    id: users.id,
    username: users.username,
    email: users.email,
    full_name: users.full_name,
    service: users.service,
  },
  role: memberships.role,
  joined_at: memberships.created_at,
};

/** The owners of `orgId` other than `userId`, counted with the organization's row locked. */
async function otherOwners(tx: Tx, orgId: string, userId: string): Promise<number> {
  await tx.execute(sql`SELECT id FROM organizations WHERE id = ${orgId} FOR UPDATE`);
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(memberships)
    .where(
      and(
        eq(memberships.org_id, orgId),
        eq(memberships.role, 'owner'),
        sql`${memberships.user_id} <> ${userId}`,
      ),
    );
  return row?.n ?? 0;
}

/**
 * The membership lookup every signed-in request makes (the server's OrgAccess), built once: drizzle
 * then skips assembling the query's SQL on each call, and PostgreSQL parses and plans the named
 * statement once per connection (docs/PERFORMANCE.md#organizations-the-permission-check-at-1000--20).
 */
function membershipQuery(orm: Drizzle) {
  return orm
    .select({ org: organizations, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.org_id))
    .where(
      and(
        eq(memberships.org_id, sql.placeholder('orgId')),
        eq(memberships.user_id, sql.placeholder('userId')),
      ),
    )
    .prepare('organizations_membership');
}

/**
 * A signed-in request's user and their membership of the organization it names (their personal one,
 * which has their id, when it names none), in ONE statement: on PGlite every statement crosses to its
 * thread (about 1 ms), so the check costs no statement of its own (docs/PERFORMANCE.md).
 */
function userWithMembershipQuery(orm: Drizzle) {
  return orm
    .select({ user: users, org: organizations, role: memberships.role })
    .from(users)
    .leftJoin(
      memberships,
      and(
        eq(memberships.user_id, users.id),
        eq(memberships.org_id, sql`coalesce(${sql.placeholder('orgId')}::uuid, ${users.id})`),
      ),
    )
    .leftJoin(organizations, eq(organizations.id, memberships.org_id))
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('users_with_membership');
}

export function organizationsRepository(orm: Drizzle) {
  const membershipLookup = membershipQuery(orm);
  const userWithMembershipLookup = userWithMembershipQuery(orm);
  return {
    /** A new team organization with `ownerId` as its owner. */
    async create(name: string, ownerId: string): Promise<OrganizationRow> {
      return orm.transaction(async (tx) => {
        const [org] = await tx.insert(organizations).values({ id: randomUUID(), name }).returning();
        await tx.insert(memberships).values({ org_id: org.id, user_id: ownerId, role: 'owner' });
        return org;
      });
    },

    async get(orgId: string): Promise<OrganizationRow | undefined> {
      if (!isUuid(orgId)) return undefined;
      const [row] = await orm.select().from(organizations).where(eq(organizations.id, orgId));
      return row;
    },

    /** The organization and the user's role in it: undefined when they are not a member (or it does not exist). */
    async membership(orgId: string, userId: string): Promise<OrgOfMember | undefined> {
      if (!isUuid(orgId) || !isUuid(userId)) return undefined;
      // Outside the request's statement limits (statement-scope.ts): one row by its key cannot run
      // long, and on PostgreSQL the limits cost two more round trips (statement_timeout set and
      // reset on the connection), more than the lookup itself. PostgreSQL's backstop for every
      // statement (database.ts) still holds it.
      const [row] = await withStatementScope({}, () => membershipLookup.execute({ orgId, userId }));
      return row && { org: row.org, role: row.role as MemberRole };
    },

    /**
     * The user `userId` and their membership of `orgId` (null: their personal organization), read
     * together; undefined when there is no such user. An `orgId` that is not a uuid finds no membership.
     */
    async userWithMembership(
      userId: string,
      orgId: string | null,
    ): Promise<{ user: UserRow; membership: OrgOfMember | undefined } | undefined> {
      if (!isUuid(userId)) return undefined;
      const wanted = orgId === null ? null : isUuid(orgId) ? orgId : '00000000-0000-0000-0000-000000000000';
      // Outside the request's statement limits, as `membership` is: two key lookups cannot run long.
      const [row] = await withStatementScope({}, () =>
        userWithMembershipLookup.execute({ userId, orgId: wanted }),
      );
      if (!row) return undefined;
      const membership = row.org && row.role ? { org: row.org, role: row.role as MemberRole } : undefined;
      return { user: row.user, membership };
    },

    /** The organizations the user belongs to: their personal one first, then by name. */
    async forUser(userId: string): Promise<OrgOfMember[]> {
      const rows = await orm
        .select({ org: organizations, role: memberships.role })
        .from(memberships)
        .innerJoin(organizations, eq(organizations.id, memberships.org_id))
        .where(eq(memberships.user_id, userId))
        .orderBy(
          sql`${organizations.personal} DESC`,
          asc(sql`lower(${organizations.name})`),
          asc(organizations.id),
        );
      return rows.map((row) => ({ org: row.org, role: row.role as MemberRole }));
    },

    /** The organization's members: people by name, then service accounts. */
    async members(orgId: string): Promise<MemberRow[]> {
      const rows = await orm
        .select(memberColumns)
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.user_id))
        .where(eq(memberships.org_id, orgId))
        .orderBy(asc(users.service), asc(sql`lower(${users.username})`));
      return rows.map((row) => ({ ...row, role: row.role as MemberRole }));
    },

    /** Adds the user with `role`; one who is already a member keeps the role they have. */
    async addMember(orgId: string, userId: string, role: MemberRole): Promise<MembershipRow> {
      const [row] = await orm
        .insert(memberships)
        .values({ org_id: orgId, user_id: userId, role })
        .onConflictDoNothing()
        .returning();
      if (row) return row;
      const [existing] = await orm
        .select()
        .from(memberships)
        .where(and(eq(memberships.org_id, orgId), eq(memberships.user_id, userId)));
      return existing;
    },

    /**
     * Gives a member `role`; undefined when they are not a member. Throws LastOwnerError when it would
     * demote the last owner.
     */
    async setRole(orgId: string, userId: string, role: MemberRole): Promise<MembershipRow | undefined> {
      if (!isUuid(userId)) return undefined;
      return orm.transaction(async (tx) => {
        if (role !== 'owner' && (await otherOwners(tx, orgId, userId)) === 0) {
          const [current] = await tx
            .select({ role: memberships.role })
            .from(memberships)
            .where(and(eq(memberships.org_id, orgId), eq(memberships.user_id, userId)));
          if (current?.role === 'owner') throw new LastOwnerError();
        }
        const [row] = await tx
          .update(memberships)
          .set({ role })
          .where(and(eq(memberships.org_id, orgId), eq(memberships.user_id, userId)))
          .returning();
        return row;
      });
    },

    /** Removes a member; false when they were not one. Throws LastOwnerError for the last owner. */
    async removeMember(orgId: string, userId: string): Promise<boolean> {
      if (!isUuid(userId)) return false;
      return orm.transaction(async (tx) => {
        const [current] = await tx
          .select({ role: memberships.role })
          .from(memberships)
          .where(and(eq(memberships.org_id, orgId), eq(memberships.user_id, userId)));
        if (!current) return false;
        if (current.role === 'owner' && (await otherOwners(tx, orgId, userId)) === 0)
          throw new LastOwnerError();
        await tx
          .delete(memberships)
          .where(and(eq(memberships.org_id, orgId), eq(memberships.user_id, userId)));
        return true;
      });
    },

    async update(
      orgId: string,
      patch: Partial<Pick<OrganizationRow, 'name' | 'sso_domain' | 'sso_role' | 'sso_required'>>,
    ): Promise<OrganizationRow | undefined> {
      const [row] = await orm
        .update(organizations)
        .set({ ...patch, updated_at: new Date() })
        .where(eq(organizations.id, orgId))
        .returning();
      return row;
    },

    /** Deletes a team organization and everything it owns; a personal one is never deleted here. */
    async delete(orgId: string): Promise<boolean> {
      const rows = await orm
        .delete(organizations)
        .where(and(eq(organizations.id, orgId), eq(organizations.personal, false)))
        .returning({ id: organizations.id });
      return rows.length > 0;
    },

    /** The team organization claiming `domain` for SSO sign-ins, if one does. */
    async byDomain(domain: string): Promise<OrganizationRow | undefined> {
      const [row] = await orm
        .select()
        .from(organizations)
        .where(sql`lower(${organizations.sso_domain}) = ${domain.toLowerCase()}`);
      return row;
    },

    /** Whether any organization the user belongs to requires SSO sign-in; its name if so. */
    async ssoRequiredBy(userId: string): Promise<string | undefined> {
      const [row] = await orm
        .select({ name: organizations.name })
        .from(memberships)
        .innerJoin(organizations, eq(organizations.id, memberships.org_id))
        .where(and(eq(memberships.user_id, userId), eq(organizations.sso_required, true)))
        .limit(1);
      return row?.name;
    },

    /** A service account of the organization, a member with `role` (its tokens act as it). */
    async createServiceAccount(orgId: string, name: string, role: MemberRole): Promise<UserRow> {
      return orm.transaction(async (tx) => {
        const id = randomUUID();
        const [user] = await tx
          .insert(users)
          .values({
            id,
            username: `service-${id}`,
            email: `service-${id}@service.invalid`,
            full_name: name,
            // No password can match: service accounts never sign in.
            password_hash: '!',
            service: true,
          })
          .returning();
        await tx.insert(memberships).values({ org_id: orgId, user_id: id, role });
        return user;
      });
    },
  };
}
export type OrganizationsRepository = ReturnType<typeof organizationsRepository>;
