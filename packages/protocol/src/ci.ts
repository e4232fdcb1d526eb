import { z } from 'zod';
import { TestRunStatusSchema } from './automation';
import { CaseFailureSchema } from './diagnostics';
import { RepairStatusSchema, RepairVerdictSchema, RunRepairSummarySchema } from './repairs';
import { RunVisualSummarySchema } from './visual';

/**
 * Argus in a delivery pipeline (docs/CI.md): personal API tokens, the run API a CI job drives
 * (start, follow, cancel, report) and what the `argus` command line reads from it.
 */

/** What a token may do: start runs (and read them), only read results, or everything a login may. */
export const TokenScopeSchema = z.enum(['run', 'read', 'full']);
export type TokenScope = z.infer<typeof TokenScopeSchema>;

/** Every token starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'argus_';

export const ApiTokenCreateSchema = z.object({
  name: z.string().trim().min(1, 'Name the token').max(100),
  scope: TokenScopeSchema.default('run'),
  /** Days until it stops working; absent or null: it never expires. */
  expires_in_days: z.number().int().min(1).max(3650).nullable().optional(),
});
export type ApiTokenCreate = z.input<typeof ApiTokenCreateSchema>;

/** A token as listed: never its value, which is shown once when it is made and stored only hashed. */
export const ApiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: TokenScopeSchema,
  /** The token's first characters (`argus_ab12…`), to tell tokens apart. */
  hint: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

/** The answer to creating a token: the only time its value is given. */
export const ApiTokenCreatedSchema = ApiTokenSchema.extend({ token: z.string() });
export type ApiTokenCreated = z.infer<typeof ApiTokenCreatedSchema>;

/**
 * How a run stands: `queued` (waiting its turn: its organization's ORG_MAX_CONCURRENT_RUNS or the
 * server's browsers are all in use; `queue_position` says how many start before it), `pending`
 * (about to start), `running`, or one of its ends. `completed`: every case ran (some may have
 * failed); `failed`: cancelled (a queued run cancelled never starts), or the project's sign-in
 * failed; `interrupted`: the server stopped under it.
 */
export const RunStatusSchema = z.enum([...TestRunStatusSchema.options, 'queued']);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** True once a run will change no more. */
export function isRunOver(status: string): boolean {
  return status !== 'pending' && status !== 'running' && status !== 'queued';
}

/**
 * One test case's result in a run. `flaky`: it failed, then passed on a retry (docs/CI.md#retries):
 * it passes the run, and is told apart from a first-time pass.
 */
export const RunCaseResultSchema = z.object({
  test_name: z.string(),
  test_case_id: z.string().nullable(),
  status: z.enum(['passed', 'flaky', 'failed', 'error', 'skipped']),
  /** How many times it ran: 1 + the retries it used. */
  attempts: z.number().int().default(1),
  /** Seconds. */
  execution_time: z.number().nullable(),
  error: z.string().nullable(),
  /** The stored result's id: `{case}` in `/api/runs/{id}/cases/{case}/…` (null while it runs). */
  result_id: z.string().nullable().default(null),
  /** Why it failed, labelled with its evidence (docs/DIAGNOSTICS.md). */
  failure: CaseFailureSchema.nullable().default(null),
  /** Signed, expiring link to its trace (`…/trace.zip`), when one was kept; null otherwise. */
  trace_url: z.string().nullable().default(null),
  trace_bytes: z.number().int().nullable().default(null),
  /**
   * Its repair verdict when it failed in a saved suite's run (docs/REPAIRS.md): a repair proposed
   * (`repair`, `weakens`) with the page to review it on, or `bug`; null when none was made.
   */
  repair: z
    .object({
      id: z.string(),
      verdict: RepairVerdictSchema,
      status: RepairStatusSchema,
      /** One sentence: what the repair changes, or why it is a bug. */
      summary: z.string(),
      /** The review page, absolute (the server's PUBLIC_URL) or relative when none is set. */
      review_url: z.string(),
    })
    .nullable()
    .default(null),
  /** The steps as the runner reported them: what each did, its status and error. */
  steps: z.array(
    z.object({
      step_number: z.number(),
      description: z.string(),
      status: z.string(),
      error: z.string().nullable(),
    }),
  ),
});
export type RunCaseResult = z.infer<typeof RunCaseResultSchema>;

/** A run as the run API answers it (`GET /api/runs/{id}`), and the JSON report. */
export const RunReportSchema = z.object({
  id: z.string(),
  status: RunStatusSchema,
  suite_name: z.string().nullable(),
  project_id: z.string().nullable(),
  suite_id: z.string().nullable(),
  suite_version: z.number().nullable(),
  environment_id: z.string().nullable(),
  environment_name: z.string().nullable(),
  url: z.string(),
  engine: z.string().nullable(),
  /** Who or what started it: the screens, the API (a token or the CLI), or a schedule. */
  trigger: z.string().nullable(),
  /**
   * While `status` is `queued`: how many runs and generations start before it (its organization's
   * and others', taking turns; docs/CI.md#runs-wait-their-turn). Absent otherwise.
   */
  queue_position: z.number().int().min(0).optional(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  /** Seconds. */
  execution_time: z.number().nullable(),
  total_tests: z.number(),
  /** Cases that passed at the first attempt. */
  passed_tests: z.number(),
  failed_tests: z.number(),
  /** Cases that passed only on a retry (in neither count above). */
  flaky_tests: z.number().default(0),
  /** Results of the cases finished so far, in the order they finished. */
  results: z.array(RunCaseResultSchema),
  /** Cases of the run with no result (not reached when it was stopped or failed), by name. */
  not_run: z.array(z.string()),
  /** Its repairs (docs/REPAIRS.md): null for a run that is not a saved suite's, or while it runs. */
  repairs: RunRepairSummarySchema.nullable().default(null),
  /** The branch its visual checks compared on first (null: the default branch). */
  branch: z.string().nullable().default(null),
  /**
   * Its visual checks (docs/VISUAL-CHECKS.md): how many wait for review. A run with any is 'changes to
   * review' (the CLI exits 1 unless `--visual=report`). Null for a run on no project.
   */
  visual: RunVisualSummarySchema.nullable().default(null),
});
export type RunReport = z.infer<typeof RunReportSchema>;

/**
 * The events of `GET /api/runs/{id}/events` (server-sent events, `event:` is the type, `data:` the
 * JSON): the run as it stands when the stream opens (and again each time a queued run's place
 * changes, and when it starts), each case as it finishes, then the run's end, after which the
 * stream closes.
 */
export const RunEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run'), run: RunReportSchema }),
  z.object({ type: z.literal('case_finished'), result: RunCaseResultSchema }),
  z.object({ type: z.literal('run_finished'), run: RunReportSchema }),
]);
export type RunEvent = z.infer<typeof RunEventSchema>;

/** `POST /api/projects/{id}/suites/{suite}/runs`: answered at once (202). */
export const RunStartedSchema = z.object({
  test_run_id: z.string(),
  environment_id: z.string(),
  environment_name: z.string(),
});
export type RunStarted = z.infer<typeof RunStartedSchema>;
