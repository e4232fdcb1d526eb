import { z } from 'zod';

// Test history and analytics (docs/HISTORY.md): every run, design comparison and conversation kept,
// a run compared with the previous run of its suite, a case's recent results, and the analytics
// computed in SQL over a range. Shapes shared by the server's routes and the web screens.

/** What the history lists: test runs, design comparisons and conversations. */
export const HISTORY_KINDS = ['run', 'comparison', 'conversation'] as const;
export const HistoryKindSchema = z.enum(HISTORY_KINDS);
export type HistoryKind = z.infer<typeof HistoryKindSchema>;

/**
 * A history item's outcome, derived from what was recorded: a run is `passed` when it completed
 * with no failed case (`flaky` when some case passed only on a retry), `failed` when a case failed
 * or the run errored, `running` while it runs, `interrupted` when a restart or a stop cut it.
 * Comparisons and conversations are `done`.
 */
export const HISTORY_OUTCOMES = ['passed', 'failed', 'flaky', 'running', 'interrupted', 'done'] as const;
export const HistoryOutcomeSchema = z.enum(HISTORY_OUTCOMES);
export type HistoryOutcome = z.infer<typeof HistoryOutcomeSchema>;

/** Who or what started a run. */
export const RUN_TRIGGERS = ['screen', 'api', 'schedule'] as const;

const Id = z.string().max(100);
/** A day or an instant (ISO 8601): `2026-11-01` or `2026-11-01T08:00:00Z`. */
const DateParam = z.iso.date().or(z.iso.datetime({ offset: true }));

/** `GET /api/history` query: newest first, a page at a time after `cursor`. */
export const HistoryQuerySchema = z.object({
  kind: HistoryKindSchema.optional(),
  project_id: Id.optional(),
  environment_id: Id.optional(),
  suite_id: Id.optional(),
  status: HistoryOutcomeSchema.optional(),
  engine: z.string().max(100).optional(),
  trigger: z.enum(RUN_TRIGGERS).optional(),
  /** Inclusive; a bare date is that day's start (UTC). */
  from: DateParam.optional(),
  /** Exclusive for an instant; a bare date includes that whole day (UTC). */
  to: DateParam.optional(),
  /** Matched case-insensitively against the title (suite name, case, conversation), URL and command. */
  q: z.string().trim().max(200).optional(),
  /** The `next_cursor` of the page before. */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type HistoryQuery = z.input<typeof HistoryQuerySchema>;

/** One line of the history (nullable fields are those the kind does not have). */
export const HistoryItemSchema = z.object({
  kind: HistoryKindSchema,
  id: z.string(),
  created_at: z.string(),
  /** Suite name, conversation title, or the design compared. */
  title: z.string(),
  url: z.string().nullable(),
  status: HistoryOutcomeSchema,
  session_id: z.string().nullable(),
  // Runs
  total_tests: z.number().int().nullable(),
  passed_tests: z.number().int().nullable(),
  failed_tests: z.number().int().nullable(),
  flaky_tests: z.number().int().nullable(),
  duration_seconds: z.number().nullable(),
  engine: z.string().nullable(),
  model_calls: z.number().int().nullable(),
  cost_usd: z.number().nullable(),
  project_id: z.string().nullable(),
  project_name: z.string().nullable(),
  environment_id: z.string().nullable(),
  environment_name: z.string().nullable(),
  suite_id: z.string().nullable(),
  suite_version: z.number().int().nullable(),
  /** `screen`, `api` (a token, the CLI) or `schedule`; null for older runs and other kinds. */
  trigger: z.string().nullable(),
  /**
   * A run's visual checks waiting for review (docs/VISUAL-CHECKS.md): above 0, the run is 'changes
   * to review'. Null for other kinds.
   */
  visual_to_review: z.number().int().nullable().default(null),
  // Design comparisons: the overall similarity, 0–100.
  score: z.number().nullable(),
});
export type HistoryItem = z.infer<typeof HistoryItemSchema>;

export const HistoryPageSchema = z.object({
  items: z.array(HistoryItemSchema),
  /** Pass as `cursor` for the next page; null on the last. */
  next_cursor: z.string().nullable(),
});
export type HistoryPage = z.infer<typeof HistoryPageSchema>;

/** A case's result as history shows it: `flaky` passed on a retry; `skipped` was never reached. */
export const CASE_OUTCOMES = ['passed', 'failed', 'flaky', 'skipped'] as const;
export const CaseOutcomeSchema = z.enum(CASE_OUTCOMES);
export type CaseOutcome = z.infer<typeof CaseOutcomeSchema>;

/** How a case fared against the previous run of the same suite. */
export const CASE_CHANGES = [
  'new_failure',
  'fixed',
  'still_failing',
  'still_passing',
  'new',
  'removed',
] as const;
export const CaseChangeSchema = z.enum(CASE_CHANGES);
export type CaseChange = z.infer<typeof CaseChangeSchema>;

/** The first step where a case's run now differs from the previous run (text or outcome). */
export const StepDifferenceSchema = z.object({
  /** 1-based. */
  step_number: z.number().int().positive(),
  now: z.object({ action: z.string(), status: z.string(), error: z.string().nullable() }).nullable(),
  before: z.object({ action: z.string(), status: z.string(), error: z.string().nullable() }).nullable(),
});
export type StepDifference = z.infer<typeof StepDifferenceSchema>;

export const CaseComparisonSchema = z.object({
  name: z.string(),
  change: CaseChangeSchema,
  /** Null for a removed case. */
  status: CaseOutcomeSchema.nullable(),
  /** Null for a new case. */
  previous_status: CaseOutcomeSchema.nullable(),
  error: z.string().nullable(),
  first_difference: StepDifferenceSchema.nullable(),
});
export type CaseComparison = z.infer<typeof CaseComparisonSchema>;

/**
 * `GET /api/history/runs/{id}`: the run's history line and its comparison with the previous run of
 * the same suite (saved suite and environment; else same suite name and URL). The cases, steps,
 * screenshots and logs come from `GET /api/automation/test-runs/{id}`.
 */
export const RunComparisonSchema = z.object({
  run: HistoryItemSchema,
  /**
   * Who started the run, by username, kept after they leave the organization; null for a schedule's
   * run or when the account is gone.
   */
  started_by: z.string().nullable(),
  previous: HistoryItemSchema.nullable(),
  cases: z.array(CaseComparisonSchema),
  counts: z.object({
    new_failures: z.number().int(),
    fixed: z.number().int(),
    still_failing: z.number().int(),
    new: z.number().int(),
    removed: z.number().int(),
  }),
});
export type RunComparison = z.infer<typeof RunComparisonSchema>;

/** `GET /api/history/cases` query: one case, by name, within a saved suite or a run's suite. */
export const CaseHistoryQuerySchema = z.object({
  name: z.string().min(1).max(500),
  /** A saved suite; else the suite of `run_id` (same name and URL). */
  suite_id: Id.optional(),
  run_id: Id.optional(),
});
export type CaseHistoryQuery = z.input<typeof CaseHistoryQuerySchema>;

/** How many results a case's strip shows. */
export const CASE_STRIP_LENGTH = 30;

export const CaseHistorySchema = z.object({
  name: z.string(),
  suite_id: z.string().nullable(),
  /** The last CASE_STRIP_LENGTH results, newest first. */
  results: z.array(
    z.object({
      run_id: z.string(),
      created_at: z.string(),
      status: CaseOutcomeSchema,
      attempts: z.number().int(),
      execution_time: z.number().nullable(),
      error: z.string().nullable(),
      suite_version: z.number().int().nullable(),
    }),
  ),
  /** Failure messages over those results, grouped (numbers and ids folded), most frequent first. */
  failures: z.array(
    z.object({
      message: z.string(),
      count: z.number().int(),
      last_seen: z.string(),
      last_run_id: z.string(),
    }),
  ),
  /** When the case's steps last changed in the saved suite; null when unknown (not a saved suite). */
  last_changed: z
    .object({ version: z.number().int(), saved_at: z.string(), saved_by: z.string(), change: z.string() })
    .nullable(),
});
export type CaseHistory = z.infer<typeof CaseHistorySchema>;

/** `GET /api/analytics` query. Without a range: the last 30 days. */
export const AnalyticsQuerySchema = z.object({
  project_id: Id.optional(),
  from: DateParam.optional(),
  to: DateParam.optional(),
  /** IANA time zone the days are counted in. @default 'UTC' */
  tz: z.string().max(64).optional(),
});
export type AnalyticsQuery = z.input<typeof AnalyticsQuerySchema>;

/** The longest range analytics answers, in days. */
export const ANALYTICS_MAX_DAYS = 366;
/** How many rows the ranked lists (slowest tests, failing steps, flaky tests) give. */
export const ANALYTICS_TOP = 20;

export const AnalyticsSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Per day with runs: runs, how many passed (no failed case), pass rate 0–1 and test counts. */
  daily: z.array(
    z.object({
      day: z.string(),
      runs: z.number().int(),
      passed_runs: z.number().int(),
      failed_runs: z.number().int(),
      pass_rate: z.number(),
      tests: z.number().int(),
      failed_tests: z.number().int(),
      flaky_tests: z.number().int(),
    }),
  ),
  /** Per suite: its run count and duration median and p95 (seconds) overall and per day. */
  durations: z.array(
    z.object({
      suite: z.string(),
      suite_id: z.string().nullable(),
      runs: z.number().int(),
      median_seconds: z.number(),
      p95_seconds: z.number(),
      days: z.array(z.object({ day: z.string(), median_seconds: z.number(), p95_seconds: z.number() })),
    }),
  ),
  slowest_tests: z.array(
    z.object({
      name: z.string(),
      suite: z.string(),
      runs: z.number().int(),
      median_seconds: z.number(),
      max_seconds: z.number(),
    }),
  ),
  /** The steps failed cases stopped at, most frequent first. */
  failing_steps: z.array(
    z.object({
      step: z.string(),
      failures: z.number().int(),
      cases: z.number().int(),
      last_seen: z.string(),
      last_run_id: z.string(),
    }),
  ),
  /**
   * Cases whose result flipped between consecutive runs of the same suite version, or that passed on
   * a retry, ranked by flip rate (flips / (runs − 1)).
   */
  flaky: z.array(
    z.object({
      name: z.string(),
      suite: z.string(),
      suite_id: z.string().nullable(),
      suite_version: z.number().int().nullable(),
      runs: z.number().int(),
      flips: z.number().int(),
      retried_passes: z.number().int(),
      flip_rate: z.number(),
      /** The runs involved, newest first (at most 10). */
      run_ids: z.array(z.string()),
    }),
  ),
  /** Model calls and estimated cost per day and engine. */
  model_cost: z.array(
    z.object({
      day: z.string(),
      engine: z.string(),
      calls: z.number().int(),
      input_tokens: z.number().int(),
      output_tokens: z.number().int(),
      cost_usd: z.number(),
    }),
  ),
  /** Design comparison scores (0–100) over time, per site (origin). */
  design_scores: z.array(
    z.object({
      site: z.string(),
      points: z.array(z.object({ created_at: z.string(), score: z.number(), comparison_id: z.string() })),
    }),
  ),
});
export type Analytics = z.infer<typeof AnalyticsSchema>;

/** `GET /api/settings/storage`: what the user keeps, and how long history is kept on this server. */
export const StorageUsageSchema = z.object({
  screenshot_bytes: z.number(),
  comparison_bytes: z.number(),
  upload_bytes: z.number(),
  total_bytes: z.number(),
  /** MAX_STORED_BYTES_PER_USER; null when unlimited. */
  quota_bytes: z.number().nullable(),
  runs: z.number().int(),
  comparisons: z.number().int(),
  oldest_run_at: z.string().nullable(),
  /** HISTORY_RETENTION_DAYS; 0 keeps everything. */
  retention_days: z.number().int(),
  /** The server's last retention sweep, for every user. */
  last_sweep: z
    .object({
      finished_at: z.string(),
      cutoff: z.string(),
      runs_deleted: z.number().int(),
      comparisons_deleted: z.number().int(),
      blobs_deleted: z.number().int(),
      bytes_freed: z.number(),
    })
    .nullable(),
});
export type StorageUsage = z.infer<typeof StorageUsageSchema>;
