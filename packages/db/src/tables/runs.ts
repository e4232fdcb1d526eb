import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { at, createdAt, id, timestamps } from './columns';
import { orgOwnerId } from './organizations';
import { environments, projects, savedSuites } from './projects';
import { ownerId, users } from './users';

// 0002_automation, 0003_storage_quota, 0004_llm_engine, 0007_server_key_caps, 0011_history,
// 0014_history_rollups, 0021_visual_checks (a run's branch and visual checks to review).

export const testRuns = pgTable(
  'test_runs',
  {
    id: id(),
    user_id: orgOwnerId(),
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
    // Who started it (0015); null for runs from before organizations, whose owner is that user.
    started_by: uuid('started_by').references(() => users.id, { onDelete: 'set null' }),
    // The branch the run names (0021_visual_checks.sql; null: the default branch) and how many of its
    // visual checks wait for review (a run with any has changes to review).
    branch: text('branch'),
    visual_to_review: integer('visual_to_review').notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    index('test_runs_user_created_idx').on(t.user_id, t.created_at.desc().nullsFirst()),
    index('test_runs_status_idx').on(t.status),
    index('test_runs_user_project_created_idx').on(t.user_id, t.project_id, t.created_at.desc().nullsFirst()),
    index('test_runs_user_created_id_idx').on(
      t.user_id,
      t.created_at.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('test_runs_user_suite_created_idx')
      .on(t.user_id, t.suite_id, t.created_at.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.suite_id} IS NOT NULL`),
    index('test_runs_created_idx').on(t.created_at),
  ],
);

export const testResults = pgTable(
  'test_results',
  {
    id: id(),
    test_run_id: uuid('test_run_id')
      .notNull()
      .references(() => testRuns.id, { onDelete: 'cascade' }),
    user_id: orgOwnerId(),
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
    // Why it failed (0018_case_diagnostics.sql, docs/DIAGNOSTICS.md); null when it passed.
    failure_kind: text('failure_kind'),
    failure_evidence: text('failure_evidence'),
    failure_fingerprint: text('failure_fingerprint'),
    failure_summary: text('failure_summary'),
    failure_step: integer('failure_step'),
    diagnostics: jsonb('diagnostics').$type<Record<string, number>>(),
    created_at: createdAt(),
  },
  (t) => [
    index('test_results_user_fingerprint_idx')
      .on(t.user_id, t.failure_fingerprint, t.created_at.desc().nullsFirst())
      .where(sql`${t.failure_fingerprint} IS NOT NULL`),
    index('test_results_run_idx').on(t.test_run_id, t.created_at),
    index('test_results_user_case_idx').on(
      t.user_id,
      t.test_case_name,
      t.created_at.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

export const screenshots = pgTable(
  'screenshots',
  {
    id: id(),
    user_id: orgOwnerId(),
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
    created_at: createdAt(),
  },
  (t) => [
    index('screenshots_run_idx').on(t.test_run_id, t.test_case_name, t.step_index),
    // INCLUDE (bytes) in the migration: Drizzle has no spelling for it.
    index('screenshots_user_bytes_idx').on(t.user_id),
    index('screenshots_sha256_idx').on(t.sha256),
  ],
);

/** One stored file of one attempt at a case: its trace, video, or console and network (0018). */
export const caseArtifacts = pgTable(
  'case_artifacts',
  {
    id: id(),
    user_id: orgOwnerId(),
    test_run_id: uuid('test_run_id')
      .notNull()
      .references(() => testRuns.id, { onDelete: 'cascade' }),
    test_case_name: text('test_case_name').notNull(),
    attempt: integer('attempt').notNull().default(1),
    kind: text('kind').notNull(),
    sha256: text('sha256').notNull(),
    mime: text('mime').notNull(),
    bytes: integer('bytes').notNull(),
    created_at: createdAt(),
  },
  (t) => [
    index('case_artifacts_run_idx').on(t.test_run_id, t.test_case_name, t.attempt),
    // INCLUDE (bytes) in the migration: Drizzle has no spelling for it.
    index('case_artifacts_user_idx').on(t.user_id),
    index('case_artifacts_sha256_idx').on(t.sha256),
    check('case_artifacts_kind_check', sql`${t.kind} IN ('trace', 'video', 'diagnostics')`),
  ],
);

export const modelUsage = pgTable(
  'model_usage',
  {
    id: id(),
    user_id: ownerId(),
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
    created_at: createdAt(),
  },
  (t) => [
    // Both INCLUDE (cost_usd) in the migrations.
    index('model_usage_user_month_idx').on(t.user_id, t.created_at),
    index('model_usage_server_key_month_idx').on(t.created_at).where(sql`${t.server_key}`),
    index('model_usage_run_idx').on(t.test_run_id).where(sql`${t.test_run_id} IS NOT NULL`),
  ],
);

export const stepCache = pgTable(
  'step_cache',
  {
    user_id: orgOwnerId(),
    cache_key: text('cache_key').notNull(),
    step_text: text('step_text').notNull(),
    page_key: text('page_key').notNull(),
    actions: jsonb('actions').$type<string[]>().notNull(),
    engine: text('engine').notNull(),
    hits: integer('hits').notNull().default(0),
    healed: integer('healed').notNull().default(0),
    ...timestamps(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.cache_key] })],
);

/** One retention sweep's report (0011_history.sql; docs/HISTORY.md#retention). */
export const retentionSweeps = pgTable('retention_sweeps', {
  id: id(),
  started_at: at('started_at').notNull(),
  finished_at: at('finished_at').notNull(),
  cutoff: at('cutoff').notNull(),
  runs_deleted: integer('runs_deleted').notNull().default(0),
  comparisons_deleted: integer('comparisons_deleted').notNull().default(0),
  blobs_deleted: integer('blobs_deleted').notNull().default(0),
  bytes_freed: bigint('bytes_freed', { mode: 'number' }).notNull().default(0),
  // false: the sweep stopped at its time budget, the next one goes on (0013_cascade_indexes.sql).
  complete: boolean('complete').notNull().default(true),
});

export type TestRunRow = typeof testRuns.$inferSelect;
export type TestResultRow = typeof testResults.$inferSelect;
export type ScreenshotRow = typeof screenshots.$inferSelect;
export type ModelUsageRow = typeof modelUsage.$inferSelect;
export type StepCacheRow = typeof stepCache.$inferSelect;
export type RetentionSweepRow = typeof retentionSweeps.$inferSelect;

/**
 * The finished runs as analytics reads them (0014_history_rollups.sql), kept equal to test_runs by a
 * trigger; analytics.ts reads it in raw SQL.
 */
export const analyticsRuns = pgTable(
  'analytics_runs',
  {
    run_id: uuid('run_id')
      .primaryKey()
      .references(() => testRuns.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id').notNull(),
    created_at: at('created_at').notNull(),
    project_id: uuid('project_id'),
    suite_id: uuid('suite_id'),
    suite_key: text('suite_key').notNull(),
    suite_label: text('suite_label').notNull(),
    status: text('status').notNull(),
    total_tests: integer('total_tests').notNull(),
    failed_tests: integer('failed_tests').notNull(),
    flaky_tests: integer('flaky_tests').notNull(),
    execution_time_seconds: doublePrecision('execution_time_seconds'),
    engine: text('engine'),
  },
  (t) => [index('analytics_runs_user_created_idx').on(t.user_id, t.created_at)],
);
