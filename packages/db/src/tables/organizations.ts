import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  type PgColumn,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { at, createdAt, id, timestamps } from './columns';
import { users } from './users';

// 0015_organizations: organizations, their members and invitations. A user's personal organization
// has the user's own id.

/** A role column holds one of the five roles (RoleSchema, packages/protocol/src/permissions.ts). */
const roleCheck = (role: PgColumn) => sql`${role} IN ('viewer', 'runner', 'editor', 'admin', 'owner')`;

export const organizations = pgTable(
  'organizations',
  {
    id: id(),
    name: text('name').notNull(),
    personal: boolean('personal').notNull().default(false),
    sso_domain: text('sso_domain'),
    sso_role: text('sso_role').notNull().default('viewer'),
    sso_required: boolean('sso_required').notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    check('organizations_sso_role_check', sql`${t.sso_role} IN ('viewer', 'runner', 'editor', 'admin')`),
    uniqueIndex('organizations_sso_domain_key')
      .on(sql`lower(${t.sso_domain})`)
      .where(sql`${t.sso_domain} IS NOT NULL`),
  ],
);

export const memberships = pgTable(
  'memberships',
  {
    org_id: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    created_at: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.org_id, t.user_id] }),
    index('memberships_user_idx').on(t.user_id, t.org_id),
    check('memberships_role_check', roleCheck(t.role)),
  ],
);

export const invitations = pgTable(
  'invitations',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').notNull(),
    token_hash: text('token_hash').notNull().unique(),
    invited_by: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    expires_at: at('expires_at').notNull(),
    accepted_at: at('accepted_at'),
    accepted_by: uuid('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revoked_at: at('revoked_at'),
  },
  (t) => [
    index('invitations_org_idx').on(t.org_id, t.created_at.desc().nullsFirst()),
    check('invitations_role_check', roleCheck(t.role)),
  ],
);

/**
 * The owner of an organization-owned row (a project and what it holds, a run, a token's scope): the
 * organization's id, in the column named user_id since before organizations (0015 moved its foreign
 * key); deleting the organization deletes what it owns.
 */
export const orgOwnerId = () =>
  uuid('user_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });

export type OrganizationRow = typeof organizations.$inferSelect;
export type MembershipRow = typeof memberships.$inferSelect;
export type InvitationRow = typeof invitations.$inferSelect;
