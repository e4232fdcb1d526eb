import { randomUUID } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Drizzle } from './database';
import type { MemberRole } from './organizations';
import { type InvitationRow, invitations, memberships } from './schema';
import { isUuid } from './users';

export interface NewInvitation {
  org_id: string;
  email: string;
  role: MemberRole;
  token_hash: string;
  invited_by: string;
  expires_at: Date;
}

/** Why an invitation link cannot be used. */
export type InvitationRefusal = 'unknown' | 'revoked' | 'used' | 'expired';

/** Invitations to join an organization (docs/ORGANIZATIONS.md#invitations): only each link's hash is kept. */
export function invitationsRepository(orm: Drizzle) {
  return {
    async create(input: NewInvitation): Promise<InvitationRow> {
      const [row] = await orm
        .insert(invitations)
        .values({ id: randomUUID(), ...input })
        .returning();
      return row;
    },
    /** The organization's invitations, newest first, used and revoked ones included. */
    async list(orgId: string): Promise<InvitationRow[]> {
      return orm
        .select()
        .from(invitations)
        .where(eq(invitations.org_id, orgId))
        .orderBy(desc(invitations.created_at), desc(invitations.id))
        .limit(500);
    },
    /** Revokes an open invitation of the organization; undefined when it is not the organization's. */
    async revoke(orgId: string, id: string): Promise<InvitationRow | undefined> {
      if (!isUuid(id)) return undefined;
      const [row] = await orm
        .update(invitations)
        .set({ revoked_at: new Date() })
        .where(
          and(
            eq(invitations.id, id),
            eq(invitations.org_id, orgId),
            isNull(invitations.revoked_at),
            isNull(invitations.accepted_at),
          ),
        )
        .returning();
      if (row) return row;
      const [existing] = await orm
        .select()
        .from(invitations)
        .where(and(eq(invitations.id, id), eq(invitations.org_id, orgId)));
      return existing;
    },
    async findByHash(hash: string): Promise<InvitationRow | undefined> {
      const [row] = await orm.select().from(invitations).where(eq(invitations.token_hash, hash));
      return row;
    },
    /**
     * Uses the invitation for `userId`, once: they become a member with its role (a member already
     * keeps their role). The refusal when it cannot be used; the row is locked, so two accepts of one
     * link cannot both succeed.
     */
    async accept(
      hash: string,
      userId: string,
      now: Date,
    ): Promise<{ invitation: InvitationRow } | { refused: InvitationRefusal }> {
      return orm.transaction(async (tx) => {
        const [invitation] = await tx
          .select()
          .from(invitations)
          .where(eq(invitations.token_hash, hash))
          .for('update');
        if (!invitation) return { refused: 'unknown' as const };
        if (invitation.revoked_at) return { refused: 'revoked' as const };
        if (invitation.accepted_at) return { refused: 'used' as const };
        if (invitation.expires_at.getTime() <= now.getTime()) return { refused: 'expired' as const };
        await tx
          .insert(memberships)
          .values({ org_id: invitation.org_id, user_id: userId, role: invitation.role })
          .onConflictDoNothing();
        const [used] = await tx
          .update(invitations)
          .set({ accepted_at: now, accepted_by: userId })
          .where(eq(invitations.id, invitation.id))
          .returning();
        return { invitation: used };
      });
    },
  };
}
export type InvitationsRepository = ReturnType<typeof invitationsRepository>;
