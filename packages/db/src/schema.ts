import {
  bigint,
  boolean,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

// Mirrors src/migrations/*.sql, which are the source of truth for the database itself
// (indexes, defaults); this file gives the repositories typed queries.

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};

export const users = pgTable('users', {
  id: uuid('id').primaryKey(),
  username: text('username').notNull(),
  email: text('email').notNull(),
  full_name: text('full_name'),
  password_hash: text('password_hash').notNull(),
  password_changed_at: timestamp('password_changed_at', { withTimezone: true, mode: 'date' })
    .notNull()
    .defaultNow(),
  ...timestamps,
});

export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey(),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  session_type: text('session_type').notNull(),
  title: text('title').notNull(),
  url: text('url'),
  status: text('status').notNull().default('ACTIVE'),
  description: text('description'),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  ...timestamps,
});

export const demoRequests = pgTable('demo_requests', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  company: text('company').notNull(),
  message: text('message').notNull().default(''),
  client_ip: text('client_ip'),
  created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const testRuns = pgTable('test_runs', {
  id: uuid('id').primaryKey(),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  session_id: text('session_id'),
  url: text('url').notNull(),
  target_url: text('target_url'),
  test_suite_name: text('test_suite_name'),
  test_mode: text('test_mode'),
  command: text('command'),
  engine: text('engine'),
  test_cases: jsonb('test_cases').$type<unknown[]>().notNull().default([]),
  status: text('status').notNull().default('pending'),
  started_at: at('started_at'),
  completed_at: at('completed_at'),
  execution_time_seconds: doublePrecision('execution_time_seconds'),
  total_tests: integer('total_tests').notNull().default(0),
  passed_tests: integer('passed_tests').notNull().default(0),
  failed_tests: integer('failed_tests').notNull().default(0),
  // Cases that failed, then passed on a retry (0011_history.sql); not counted in passed_tests.
  flaky_tests: integer('flaky_tests').notNull().default(0),
  model_calls: integer('model_calls').notNull().default(0),
  input_tokens: integer('input_tokens').notNull().default(0),
  output_tokens: integer('output_tokens').notNull().default(0),
  cost_usd: doublePrecision('cost_usd').notNull().default(0),
  execution_log: jsonb('execution_log')
    .$type<{ timestamp: string; level: string; message: string }[]>()
    .notNull()
    .default([]),
  // A run on a project's environment, or of a saved suite (0008_projects.sql); the environment's name
  // is kept as it was, the ids are cleared when what they name is deleted.
  project_id: uuid('project_id').references(() => projects.id, { onDelete: 'set null' }),
  environment_id: uuid('environment_id').references(() => environments.id, { onDelete: 'set null' }),
  environment_name: text('environment_name'),
  suite_id: uuid('suite_id').references(() => savedSuites.id, { onDelete: 'set null' }),
  suite_version: integer('suite_version'),
  // screen | api | schedule (0009_api_tokens.sql)
  trigger: text('trigger'),
  ...timestamps,
});

export const testResults = pgTable('test_results', {
  id: uuid('id').primaryKey(),
  test_run_id: uuid('test_run_id')
    .notNull()
    .references(() => testRuns.id, { onDelete: 'cascade' }),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  test_case_id: text('test_case_id'),
  test_case_name: text('test_case_name').notNull(),
  status: text('status').notNull(),
  execution_time: doublePrecision('execution_time'),
  error_message: text('error_message'),
  // 1 + the retries the case used (0011_history.sql).
  attempts: integer('attempts').notNull().default(1),
  steps: jsonb('steps').$type<unknown[]>().notNull().default([]),
  logs: jsonb('logs').$type<unknown[]>().notNull().default([]),
  screenshots: jsonb('screenshots').$type<unknown[]>().notNull().default([]),
  created_at: at('created_at').notNull().defaultNow(),
});

export const screenshots = pgTable('screenshots', {
  id: uuid('id').primaryKey(),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  test_run_id: uuid('test_run_id').references(() => testRuns.id, { onDelete: 'cascade' }),
  test_case_name: text('test_case_name').notNull(),
  step_name: text('step_name'),
  step_index: integer('step_index').notNull().default(0),
  sha256: text('sha256').notNull(),
  mime: text('mime').notNull(),
  bytes: integer('bytes').notNull(),
  width: integer('width'),
  height: integer('height'),
  metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
  created_at: at('created_at').notNull().defaultNow(),
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

export const modelUsage = pgTable('model_usage', {
  id: uuid('id').primaryKey(),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull(),
  test_run_id: uuid('test_run_id').references(() => testRuns.id, { onDelete: 'set null' }),
  session_id: text('session_id'),
  provider: text('provider').notNull(),
  model: text('model').notNull(),
  input_tokens: integer('input_tokens').notNull().default(0),
  output_tokens: integer('output_tokens').notNull().default(0),
  cost_usd: doublePrecision('cost_usd').notNull().default(0),
  /** Paid with the server's own key (AI_API_KEY): counts against the operator's caps. */
  server_key: boolean('server_key').notNull().default(false),
  /** false: the model had no known price, and cost_usd (0) means unknown. */
  cost_known: boolean('cost_known').notNull().default(true),
  created_at: at('created_at').notNull().defaultNow(),
});

export const stepCache = pgTable(
  'step_cache',
  {
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    cache_key: text('cache_key').notNull(),
    step_text: text('step_text').notNull(),
    page_key: text('page_key').notNull(),
    actions: jsonb('actions').$type<string[]>().notNull(),
    engine: text('engine').notNull(),
    hits: integer('hits').notNull().default(0),
    healed: integer('healed').notNull().default(0),
    created_at: at('created_at').notNull().defaultNow(),
    updated_at: at('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.user_id, table.cache_key] })],
);

export type UserSettingsRow = typeof userSettings.$inferSelect;
export type ModelUsageRow = typeof modelUsage.$inferSelect;
export type StepCacheRow = typeof stepCache.$inferSelect;
export type TestRunRow = typeof testRuns.$inferSelect;
export type TestResultRow = typeof testResults.$inferSelect;
export type ScreenshotRow = typeof screenshots.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type DemoRequestRow = typeof demoRequests.$inferSelect;

export const conversations = pgTable('conversations', {
  id: uuid('id').primaryKey(),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  session_id: text('session_id'),
  title: text('title').notNull(),
  url: text('url'),
  ...timestamps,
});

/** One action a chat turn performed, kept with the assistant's message (ConversationActionSchema). */
export interface ConversationActionRow {
  action: string;
  message?: string;
  url?: string;
}

export const conversationMessages = pgTable('conversation_messages', {
  id: uuid('id').primaryKey(),
  seq: integer('seq').generatedAlwaysAsIdentity(),
  conversation_id: uuid('conversation_id')
    .notNull()
    .references(() => conversations.id, { onDelete: 'cascade' }),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  role: text('role').notNull(),
  content: text('content').notNull(),
  actions: jsonb('actions').$type<ConversationActionRow[]>().notNull().default([]),
  created_at: at('created_at').notNull().defaultNow(),
});

export type ConversationRow = typeof conversations.$inferSelect;
export type ConversationMessageRow = typeof conversationMessages.$inferSelect;

export const designUploads = pgTable('design_uploads', {
  id: uuid('id').primaryKey(),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  sha256: text('sha256').notNull(),
  thumbnail_sha256: text('thumbnail_sha256').notNull(),
  filename: text('filename').notNull(),
  content_type: text('content_type').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  size: integer('size').notNull(),
  thumbnail_bytes: integer('thumbnail_bytes').notNull().default(0),
  created_at: at('created_at').notNull().defaultNow(),
});

/** Per viewport, the stored images a comparison shows (comparison_images ids). */
export type ComparisonImagesRow = Record<
  string,
  { site: string; design: string; width: number; height: number }
>;

export const comparisons = pgTable('comparisons', {
  id: uuid('id').primaryKey(),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  session_id: text('session_id'),
  comparison_type: text('comparison_type').notNull(),
  website_url: text('website_url').notNull(),
  figma_url: text('figma_url'),
  file_id: uuid('file_id').references(() => designUploads.id, { onDelete: 'set null' }),
  results: jsonb('results').$type<Record<string, unknown>>().notNull(),
  images: jsonb('images').$type<ComparisonImagesRow>().notNull().default({}),
  created_at: at('created_at').notNull().defaultNow(),
});

export const comparisonImages = pgTable('comparison_images', {
  id: uuid('id').primaryKey(),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  sha256: text('sha256').notNull(),
  bytes: integer('bytes').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  created_at: at('created_at').notNull().defaultNow(),
});

export type DesignUploadRow = typeof designUploads.$inferSelect;
export type ComparisonRow = typeof comparisons.$inferSelect;
export type ComparisonImageRow = typeof comparisonImages.$inferSelect;

/** ProjectLoginSchema's shape as stored (the column is checked by the schema before every write). */
export type ProjectLoginRow =
  | { mode: 'none' }
  | {
      mode: 'credentials';
      login_url: string;
      username_variable: string;
      password_secret: string;
      totp_secret?: string | null;
    }
  | { mode: 'steps'; steps: string[] };

export const projects = pgTable('projects', {
  id: uuid('id').primaryKey(),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  kind: text('kind').notNull().default('web'),
  login: jsonb('login').$type<ProjectLoginRow>().notNull().default({ mode: 'none' }),
  ...timestamps,
});

export const environments = pgTable('environments', {
  id: uuid('id').primaryKey(),
  project_id: uuid('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  user_id: uuid('user_id').notNull(),
  name: text('name').notNull(),
  base_url: text('base_url').notNull(),
  is_default: boolean('is_default').notNull().default(false),
  created_at: at('created_at').notNull().defaultNow(),
});

export const projectVariables = pgTable('project_variables', {
  id: uuid('id').primaryKey(),
  project_id: uuid('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  user_id: uuid('user_id').notNull(),
  environment_id: uuid('environment_id').references(() => environments.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  secret: boolean('secret').notNull().default(false),
  value: text('value'),
  value_enc: text('value_enc'),
  updated_at: at('updated_at').notNull().defaultNow(),
});

export const savedSuites = pgTable('saved_suites', {
  id: uuid('id').primaryKey(),
  project_id: uuid('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  user_id: uuid('user_id').notNull(),
  name: text('name').notNull(),
  version: integer('version').notNull().default(1),
  test_cases: jsonb('test_cases').$type<unknown[]>().notNull().default([]),
  // Retries per case (0011_history.sql).
  retries: integer('retries').notNull().default(0),
  ...timestamps,
});

export const savedSuiteVersions = pgTable(
  'saved_suite_versions',
  {
    suite_id: uuid('suite_id')
      .notNull()
      .references(() => savedSuites.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    test_cases: jsonb('test_cases').$type<unknown[]>().notNull(),
    saved_by: text('saved_by').notNull(),
    change: text('change').notNull(),
    saved_at: at('saved_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.suite_id, table.version] })],
);

export type ProjectRow = typeof projects.$inferSelect;
export type EnvironmentRow = typeof environments.$inferSelect;
export type ProjectVariableRow = typeof projectVariables.$inferSelect;
export type SavedSuiteRow = typeof savedSuites.$inferSelect;
export type SavedSuiteVersionRow = typeof savedSuiteVersions.$inferSelect;

/** Personal API tokens (0009_api_tokens.sql): only their hash is kept. */
export const apiTokens = pgTable('api_tokens', {
  id: uuid('id').primaryKey(),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  scope: text('scope').notNull(),
  token_hash: text('token_hash').notNull(),
  hint: text('hint').notNull(),
  expires_at: at('expires_at'),
  last_used_at: at('last_used_at'),
  revoked_at: at('revoked_at'),
  created_at: at('created_at').notNull().defaultNow(),
});
export type ApiTokenRow = typeof apiTokens.$inferSelect;

/** Schedules of saved suites (0010_schedules_webhooks.sql, docs/SCHEDULES.md). */
export const schedules = pgTable('schedules', {
  id: uuid('id').primaryKey(),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  project_id: uuid('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  suite_id: uuid('suite_id')
    .notNull()
    .references(() => savedSuites.id, { onDelete: 'cascade' }),
  environment_id: uuid('environment_id')
    .notNull()
    .references(() => environments.id, { onDelete: 'cascade' }),
  cron: text('cron').notNull(),
  timezone: text('timezone').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  next_run_at: at('next_run_at'),
  retry_at: at('retry_at'),
  retry_until: at('retry_until'),
  last_run_at: at('last_run_at'),
  last_run_id: uuid('last_run_id'),
  last_outcome: text('last_outcome'),
  last_message: text('last_message'),
  ...timestamps,
});
export type ScheduleRow = typeof schedules.$inferSelect;

/** A project's webhooks (0010_schedules_webhooks.sql): the signing secret is stored encrypted. */
export const webhooks = pgTable('webhooks', {
  id: uuid('id').primaryKey(),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  project_id: uuid('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  url: text('url').notNull(),
  format: text('format').notNull(),
  events: jsonb('events').$type<string[]>().notNull(),
  secret_enc: text('secret_enc').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  ...timestamps,
});
export type WebhookRow = typeof webhooks.$inferSelect;

/** Each notification to a webhook and where its attempts stand (0010_schedules_webhooks.sql). */
export const webhookDeliveries = pgTable('webhook_deliveries', {
  id: uuid('id').primaryKey(),
  webhook_id: uuid('webhook_id')
    .notNull()
    .references(() => webhooks.id, { onDelete: 'cascade' }),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  project_id: uuid('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  test_run_id: uuid('test_run_id'),
  event: text('event').notNull(),
  body: text('body').notNull(),
  status: text('status').notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  response_code: integer('response_code'),
  last_error: text('last_error'),
  next_attempt_at: at('next_attempt_at'),
  delivered_at: at('delivered_at'),
  ...timestamps,
});
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** One retention sweep's report (0011_history.sql; docs/HISTORY.md#retention). */
export const retentionSweeps = pgTable('retention_sweeps', {
  id: uuid('id').primaryKey(),
  started_at: at('started_at').notNull(),
  finished_at: at('finished_at').notNull(),
  cutoff: at('cutoff').notNull(),
  runs_deleted: integer('runs_deleted').notNull().default(0),
  comparisons_deleted: integer('comparisons_deleted').notNull().default(0),
  blobs_deleted: integer('blobs_deleted').notNull().default(0),
  bytes_freed: bigint('bytes_freed', { mode: 'number' }).notNull().default(0),
});
export type RetentionSweepRow = typeof retentionSweeps.$inferSelect;
