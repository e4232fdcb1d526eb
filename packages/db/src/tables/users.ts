import { sql } from 'drizzle-orm';
import { boolean, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, id, timestamps } from './columns';

// 0001_foundation: the accounts every other table's rows belong to.

export const users = pgTable(
  'users',
  {
    id: id(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    full_name: text('full_name'),
    password_hash: text('password_hash').notNull(),
    password_changed_at: at('password_changed_at').notNull().defaultNow(),
    // A service account (0015): an organization's service token acts as it; it never signs in.
    service: boolean('service').notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
  ],
);

/** The owner of a row: deleting the user deletes what they own. */
export const ownerId = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

export type UserRow = typeof users.$inferSelect;
