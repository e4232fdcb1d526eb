import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import {
  type SsoFlowRow,
  type SsoIdentityRow,
  ssoFlows,
  ssoHandoffs,
  ssoIdentities,
  type UserRow,
  users,
} from './schema';
import { type NewUser, UniqueViolation, uniqueViolationField, usersRepository } from './users';

/** A provider's account: the `iss` and `sub` of its ID tokens. */
export interface SsoSubject {
  issuer: string;
  subject: string;
}

export type NewSsoFlow = Pick<SsoFlowRow, 'state_hash' | 'nonce' | 'code_verifier' | 'expires_at'>;

/**
 * Single sign-on (docs/SSO.md): provider accounts linked to users, the sign-ins under way and the
 * one-time codes that hand a finished one to the web app. Flows and codes are taken by deleting them,
 * so each is used once whichever process (or racing request) asks first.
 */
export function ssoRepository(orm: Drizzle) {
  return {
    /** The user a provider account signs in as, if it was linked before. */
    async findUser(who: SsoSubject): Promise<UserRow | undefined> {
      const [row] = await orm
        .select({ user: users })
        .from(ssoIdentities)
        .innerJoin(users, eq(users.id, ssoIdentities.user_id))
        .where(and(eq(ssoIdentities.issuer, who.issuer), eq(ssoIdentities.subject, who.subject)));
      return row?.user;
    },
    /** The user whose email this is, in any case (the email, never the username, is matched). */
    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await orm
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
        .limit(1);
      return row;
    },
    /** Links a provider account to a user; a second link of the same account keeps the first. */
    async link(who: SsoSubject, userId: string, email: string | null): Promise<void> {
      await orm
        .insert(ssoIdentities)
        .values({ ...who, user_id: userId, email })
        .onConflictDoNothing();
    },
    /** Records a sign-in of a linked account, with the email the provider gave this time. */
    async touch(who: SsoSubject, email: string | null, now = new Date()): Promise<void> {
      await orm
        .update(ssoIdentities)
        .set({ email, last_sign_in_at: now })
        .where(and(eq(ssoIdentities.issuer, who.issuer), eq(ssoIdentities.subject, who.subject)));
    },
    /**
     * A new user and their provider account in one transaction. Throws UniqueViolation when the
     * username or email is taken (the caller tries another username, or links by email).
     */
    async createUser(input: NewUser, who: SsoSubject): Promise<UserRow> {
      try {
        return await orm.transaction(async (tx) => {
          // Made as registration makes users (their personal organization with them), inside this
          // transaction (a savepoint), so a refused link leaves no user behind.
          const user = await usersRepository(tx as unknown as Drizzle).create(input);
          await tx.insert(ssoIdentities).values({ ...who, user_id: user.id, email: input.email });
          return user;
        });
      } catch (error) {
        if (error instanceof UniqueViolation) throw error;
        const field = uniqueViolationField(error);
        if (field) throw new UniqueViolation(field);
        throw error;
      }
    },
    identities: (userId: string): Promise<SsoIdentityRow[]> =>
      orm.select().from(ssoIdentities).where(eq(ssoIdentities.user_id, userId)),

    /** Keeps a sign-in sent to the provider, and forgets those past their time. */
    async saveFlow(flow: NewSsoFlow, now = new Date()): Promise<void> {
      await orm.delete(ssoFlows).where(lt(ssoFlows.expires_at, now));
      await orm.insert(ssoFlows).values(flow);
    },
    /** Takes the sign-in with this state, once; undefined when unknown, taken before or expired. */
    async takeFlow(stateHash: string, now = new Date()): Promise<SsoFlowRow | undefined> {
      const [row] = await orm.delete(ssoFlows).where(eq(ssoFlows.state_hash, stateHash)).returning();
      return row && row.expires_at > now ? row : undefined;
    },

    /** Keeps a finished sign-in's one-time code, and forgets those past their time. */
    async saveHandoff(codeHash: string, userId: string, expiresAt: Date, now = new Date()): Promise<void> {
      await orm.delete(ssoHandoffs).where(lt(ssoHandoffs.expires_at, now));
      await orm.insert(ssoHandoffs).values({ code_hash: codeHash, user_id: userId, expires_at: expiresAt });
    },
    /** The user of a one-time code, once; undefined when unknown, used before or expired. */
    async takeHandoff(codeHash: string, now = new Date()): Promise<UserRow | undefined> {
      const [row] = await orm
        .delete(ssoHandoffs)
        .where(and(eq(ssoHandoffs.code_hash, codeHash), gt(ssoHandoffs.expires_at, now)))
        .returning();
      if (!row) return undefined;
      const [user] = await orm.select().from(users).where(eq(users.id, row.user_id));
      return user;
    },
  };
}
export type SsoRepository = ReturnType<typeof ssoRepository>;
