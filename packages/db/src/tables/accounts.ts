import { doublePrecision, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id, timestamps } from './columns';
import { organizations } from './organizations';
import { ownerId, users } from './users';

// 0001_foundation (sessions, demo requests), 0004_llm_engine (user settings), 0009_api_tokens.

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    user_id: ownerId(),
    session_type: text('session_type').notNull(),
    title: text('title').notNull(),
    url: text('url'),
    status: text('status').notNull().default('ACTIVE'),
    description: text('description'),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps(),
  },
  (t) => [index('sessions_user_created_idx').on(t.user_id, t.created_at.desc().nullsFirst())],
);

export const demoRequests = pgTable('demo_requests', {
  id: id(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  company: text('company').notNull(),
  message: text('message').notNull().default(''),
  client_ip: text('client_ip'),
  created_at: createdAt(),
});

export const userSettings = pgTable('user_settings', {
  user_id: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  ai_provider: text('ai_provider'),
  ai_model: text('ai_model'),
  ai_base_url: text('ai_base_url'),
  ai_api_key_enc: text('ai_api_key_enc'),
  ai_api_key_last4: text('ai_api_key_last4'),
  figma_token_enc: text('figma_token_enc'),
  figma_token_last4: text('figma_token_last4'),
  monthly_budget_usd: doublePrecision('monthly_budget_usd'),
  updated_at: at('updated_at').notNull().defaultNow(),
});

/** Personal API tokens (0009_api_tokens.sql): only their hash is kept. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: id(),
    // The member (or service account) the token acts as, in organization org_id (0015).
    user_id: ownerId(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scope: text('scope').notNull(),
    token_hash: text('token_hash').notNull().unique(),
    hint: text('hint').notNull(),
    expires_at: at('expires_at'),
    last_used_at: at('last_used_at'),
    revoked_at: at('revoked_at'),
    created_at: createdAt(),
  },
  (t) => [
    index('api_tokens_user_idx').on(t.user_id, t.created_at.desc().nullsFirst()),
    index('api_tokens_org_idx').on(t.org_id, t.created_at.desc().nullsFirst()),
  ],
);

export type SessionRow = typeof sessions.$inferSelect;
export type DemoRequestRow = typeof demoRequests.$inferSelect;
export type UserSettingsRow = typeof userSettings.$inferSelect;
export type ApiTokenRow = typeof apiTokens.$inferSelect;
