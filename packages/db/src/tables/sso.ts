import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { at, createdAt } from './columns';
import { ownerId } from './users';

// 0016_sso: single sign-on with OpenID Connect (docs/SSO.md).

/** A provider's account (issuer, subject) and the user it signs in as. */
export const ssoIdentities = pgTable(
  'sso_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    user_id: ownerId(),
    email: text('email'),
    created_at: createdAt(),
    last_sign_in_at: at('last_sign_in_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index('sso_identities_user_idx').on(t.user_id)],
);

/** A sign-in sent to the provider: its state (hashed), nonce and PKCE verifier, used once. */
export const ssoFlows = pgTable(
  'sso_flows',
  {
    state_hash: text('state_hash').primaryKey(),
    nonce: text('nonce').notNull(),
    code_verifier: text('code_verifier').notNull(),
    expires_at: at('expires_at').notNull(),
  },
  (t) => [index('sso_flows_expires_idx').on(t.expires_at)],
);

/** A finished sign-in's one-time code (hashed), exchanged by the web app for a login token. */
export const ssoHandoffs = pgTable(
  'sso_handoffs',
  {
    code_hash: text('code_hash').primaryKey(),
    user_id: ownerId(),
    expires_at: at('expires_at').notNull(),
  },
  (t) => [index('sso_handoffs_expires_idx').on(t.expires_at), index('sso_handoffs_user_idx').on(t.user_id)],
);

export type SsoIdentityRow = typeof ssoIdentities.$inferSelect;
export type SsoFlowRow = typeof ssoFlows.$inferSelect;
