import { type SQL, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import { isUuid } from './users';

// The history list, a run's previous run and a case's recent results (docs/HISTORY.md). Raw SQL: the
// list is a UNION of three tables paged by keyset, each branch ordered and limited on its own
// (user_id, created_at DESC, id DESC) index before the merge, so a page reads about `limit` rows per
// kind however long the history (docs/PERFORMANCE.md#history-and-analytics). Never OFFSET.

/** A history line as the SQL answers it (HistoryItemSchema's fields, plus the exact keyset position). */
export interface HistoryRow {
  kind: 'run' | 'comparison' | 'conversation';
  id: string;
  /** created_at to the microsecond, UTC (`2026-11-01T08:00:00.123456Z`): the keyset position. */
  position: string;
  title: string;
  url: string | null;
  status: string;
  session_id: string | null;
  total_tests: number | null;
  passed_tests: number | null;
  failed_tests: number | null;
  flaky_tests: number | null;
  duration_seconds: number | null;
  engine: string | null;
  model_calls: number | null;
  cost_usd: number | null;
  project_id: string | null;
  project_name: string | null;
  environment_id: string | null;
  environment_name: string | null;
  suite_id: string | null;
  suite_version: number | null;
  trigger: string | null;
  visual_to_review: number | null;
  score: number | null;
  // What the comparison of runs needs to find the previous run (runs only).
  test_suite_name: string | null;
  run_status: string | null;
}

export interface HistoryFilter {
  kinds: ('run' | 'comparison' | 'conversation')[];
  project_id?: string;
  environment_id?: string;
  suite_id?: string;
  /** A HistoryOutcome. */
  status?: string;
  engine?: string;
  trigger?: string;
  /** Inclusive instant. */
  from?: Date;
  /** Exclusive instant. */
  to?: Date;
  q?: string;
  /** Strictly after (older than) this position. */
  after?: { position: string; id: string };
  /** Rows to answer: the caller asks one more than a page to know whether another follows. */
  limit: number;
}

/** The run's outcome as history shows it (HistoryOutcomeSchema), from its status and counters. */
const runOutcome = sql.raw(`CASE
  WHEN r.status IN ('pending', 'running') THEN 'running'
  WHEN r.status = 'interrupted' THEN 'interrupted'
  WHEN r.status = 'completed' AND r.failed_tests = 0 AND r.flaky_tests > 0 THEN 'flaky'
  WHEN r.status = 'completed' AND r.failed_tests = 0 THEN 'passed'
  ELSE 'failed' END`);

const position = (column: string) =>
  sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);

/** `%` and `_` match themselves in the user's text (backslash is LIKE's default escape). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const runColumns = sql`'run' AS kind, r.id::text AS id, ${position('r.created_at')} AS position,
  r.created_at AS sort_at, r.id AS sort_id,
  COALESCE(NULLIF(r.test_suite_name, ''), NULLIF(r.command, ''), r.url) AS title, r.url AS url,
  ${runOutcome} AS status, r.session_id AS session_id,
  r.total_tests AS total_tests, r.passed_tests AS passed_tests, r.failed_tests AS failed_tests,
  r.flaky_tests AS flaky_tests, r.execution_time_seconds AS duration_seconds, r.engine AS engine,
  r.model_calls AS model_calls, r.cost_usd AS cost_usd, r.project_id::text AS project_id,
  p.name AS project_name, r.environment_id::text AS environment_id, r.environment_name AS environment_name,
  r.suite_id::text AS suite_id, r.suite_version AS suite_version, r.trigger AS trigger,
  r.visual_to_review AS visual_to_review, NULL::double precision AS score, r.test_suite_name AS test_suite_name, r.status AS run_status`;
const runFrom = sql`test_runs r LEFT JOIN projects p ON p.id = r.project_id AND p.user_id = r.user_id`;

/** A comparison's overall similarity (0–100), under either of the spec's two spellings. */
const comparisonScore = sql.raw(`CASE
  WHEN jsonb_typeof(c.results->'overall_similarity') = 'number' THEN (c.results->>'overall_similarity')::double precision
  WHEN jsonb_typeof(c.results->'success_rate') = 'number' THEN (c.results->>'success_rate')::double precision
  END`);

const NULL_RUN_FIELDS = `NULL::int AS total_tests, NULL::int AS passed_tests, NULL::int AS failed_tests,
  NULL::int AS flaky_tests, NULL::double precision AS duration_seconds, NULL::text AS engine,
  NULL::int AS model_calls, NULL::double precision AS cost_usd, NULL::text AS project_id,
  NULL::text AS project_name, NULL::text AS environment_id, NULL::text AS environment_name,
  NULL::text AS suite_id, NULL::int AS suite_version, NULL::text AS trigger, NULL::int AS visual_to_review`;

async function rows<T>(orm: Drizzle, query: SQL): Promise<T[]> {
  const result = (await orm.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Numbers from either driver (node-postgres answers bigint and numeric as text). */
function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

function normalise(row: Record<string, unknown>): HistoryRow {
  const out = { ...row } as Record<string, unknown>;
  for (const key of [
    'total_tests',
    'passed_tests',
    'failed_tests',
    'flaky_tests',
    'duration_seconds',
    'model_calls',
    'cost_usd',
    'suite_version',
    'visual_to_review',
    'score',
  ]) {
    out[key] = numberOrNull(out[key]);
  }
  delete out.sort_at;
  delete out.sort_id;
  return out as unknown as HistoryRow;
}

/** The run a comparison starts from, and a case's strip: which earlier runs count as the same suite. */
export type SuiteScope =
  | { suite_id: string; environment_id: string | null }
  | { url: string; test_suite_name: string | null };

export interface CaseResultRow {
  run_id: string;
  created_at: Date;
  status: string;
  attempts: number;
  execution_time: number | null;
  error_message: string | null;
  suite_version: number | null;
}

export interface SuiteVersionRow {
  version: number;
  test_cases: unknown[];
  saved_by: string;
  change: string;
  saved_at: Date;
}

function scopeCondition(scope: SuiteScope): SQL {
  if ('suite_id' in scope) {
    return scope.environment_id === null
      ? sql`r.suite_id = ${scope.suite_id}::uuid`
      : sql`r.suite_id = ${scope.suite_id}::uuid AND r.environment_id = ${scope.environment_id}::uuid`;
  }
  return scope.test_suite_name === null
    ? sql`r.url = ${scope.url} AND r.test_suite_name IS NULL`
    : sql`r.url = ${scope.url} AND r.test_suite_name = ${scope.test_suite_name}`;
}

/** The history's queries; every one takes the owner's id. */
export function historyRepository(orm: Drizzle) {
  return {
    /** One page (at most `limit` rows) of the user's history, newest first by (created_at, id). */
    async list(userId: string, filter: HistoryFilter): Promise<HistoryRow[]> {
      const branches: SQL[] = [];
      const common = (alias: string): SQL[] => {
        const conditions: SQL[] = [sql`${sql.raw(alias)}.user_id = ${userId}::uuid`];
        if (filter.from)
          conditions.push(sql`${sql.raw(alias)}.created_at >= ${filter.from.toISOString()}::timestamptz`);
        if (filter.to)
          conditions.push(sql`${sql.raw(alias)}.created_at < ${filter.to.toISOString()}::timestamptz`);
        if (filter.after) {
          conditions.push(
            sql`(${sql.raw(alias)}.created_at, ${sql.raw(alias)}.id) < (${filter.after.position}::timestamptz, ${filter.after.id}::uuid)`,
          );
        }
        return conditions;
      };
      const pattern = filter.q ? likePattern(filter.q) : undefined;
      if (filter.kinds.includes('run')) {
        const conditions = common('r');
        if (filter.project_id) conditions.push(sql`r.project_id = ${filter.project_id}::uuid`);
        if (filter.environment_id) conditions.push(sql`r.environment_id = ${filter.environment_id}::uuid`);
        if (filter.suite_id) conditions.push(sql`r.suite_id = ${filter.suite_id}::uuid`);
        if (filter.engine) conditions.push(sql`r.engine = ${filter.engine}`);
        if (filter.trigger) conditions.push(sql`r.trigger = ${filter.trigger}`);
        if (filter.status) conditions.push(sql`${runOutcome} = ${filter.status}`);
        if (pattern) {
          conditions.push(
            sql`(r.test_suite_name ILIKE ${pattern} OR r.url ILIKE ${pattern} OR r.command ILIKE ${pattern})`,
          );
        }
        branches.push(sql`(SELECT ${runColumns} FROM ${runFrom} WHERE ${sql.join(conditions, sql` AND `)}
          ORDER BY r.created_at DESC, r.id DESC LIMIT ${filter.limit})`);
      }
      if (filter.kinds.includes('comparison')) {
        const conditions = common('c');
        if (pattern) {
          conditions.push(
            sql`(c.website_url ILIKE ${pattern} OR c.figma_url ILIKE ${pattern} OR u.filename ILIKE ${pattern})`,
          );
        }
        branches.push(sql`(SELECT 'comparison' AS kind, c.id::text AS id, ${position('c.created_at')} AS position,
            c.created_at AS sort_at, c.id AS sort_id,
            COALESCE(u.filename, c.figma_url, 'Design comparison') AS title, c.website_url AS url,
            'done' AS status, c.session_id AS session_id, ${sql.raw(NULL_RUN_FIELDS)},
            ${comparisonScore} AS score, NULL::text AS test_suite_name, NULL::text AS run_status
          FROM comparisons c LEFT JOIN design_uploads u ON u.id = c.file_id AND u.user_id = c.user_id
          WHERE ${sql.join(conditions, sql` AND `)}
          ORDER BY c.created_at DESC, c.id DESC LIMIT ${filter.limit})`);
      }
      if (filter.kinds.includes('conversation')) {
        const conditions = common('v');
        if (pattern) conditions.push(sql`(v.title ILIKE ${pattern} OR v.url ILIKE ${pattern})`);
        branches.push(sql`(SELECT 'conversation' AS kind, v.id::text AS id, ${position('v.created_at')} AS position,
            v.created_at AS sort_at, v.id AS sort_id, v.title AS title, v.url AS url,
            'done' AS status, v.session_id AS session_id, ${sql.raw(NULL_RUN_FIELDS)},
            NULL::double precision AS score, NULL::text AS test_suite_name, NULL::text AS run_status
          FROM conversations v WHERE ${sql.join(conditions, sql` AND `)}
          ORDER BY v.created_at DESC, v.id DESC LIMIT ${filter.limit})`);
      }
      if (branches.length === 0) return [];
      // Without fresh statistics (PGlite never autovacuums; PostgreSQL right after a bulk load) the
      // planner guessed a page after a cursor matched a few dozen rows, read every run of the user
      // through a bitmap and sorted them (170 ms at 20,000 runs, not 10): walking the keyset index
      // is right whatever the statistics say. Nor can the planner guess how many runs an outcome filter
      // keeps (a CASE over status and counters): guessing a few, it read every run of the user and sorted
      // them (a sequential scan, 50-130 ms at 60,000 runs, with the suite's keyset index beside it).
      const found = await orm.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL enable_bitmapscan = off`);
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        return rows<Record<string, unknown>>(
          tx as unknown as Drizzle,
          sql`SELECT * FROM (${sql.join(branches, sql` UNION ALL `)}) page
            ORDER BY sort_at DESC, sort_id DESC LIMIT ${filter.limit}`,
        );
      });
      return found.map(normalise);
    },

    /** One of the user's runs as a history line. */
    async run(userId: string, runId: string): Promise<HistoryRow | undefined> {
      if (!isUuid(runId)) return undefined;
      const [row] = await rows<Record<string, unknown>>(
        orm,
        sql`SELECT ${runColumns} FROM ${runFrom} WHERE r.user_id = ${userId}::uuid AND r.id = ${runId}::uuid`,
      );
      return row ? normalise(row) : undefined;
    },

    /** The latest run of the same suite recorded before `run` that is over (not pending nor running). */
    async previousRun(userId: string, run: HistoryRow, scope: SuiteScope): Promise<HistoryRow | undefined> {
      const [row] = await rows<Record<string, unknown>>(
        orm,
        sql`SELECT ${runColumns} FROM ${runFrom}
          WHERE r.user_id = ${userId}::uuid AND ${scopeCondition(scope)}
            AND (r.created_at, r.id) < (${run.position}::timestamptz, ${run.id}::uuid)
            AND r.status NOT IN ('pending', 'running')
          ORDER BY r.created_at DESC, r.id DESC LIMIT 1`,
      );
      return row ? normalise(row) : undefined;
    },

    /** A case's latest results (by name) within a suite's runs, newest first. */
    async caseResults(
      userId: string,
      name: string,
      scope: SuiteScope,
      limit: number,
    ): Promise<CaseResultRow[]> {
      const found = await rows<Record<string, unknown>>(
        orm,
        sql`SELECT t.test_run_id::text AS run_id, r.created_at AS created_at, t.status AS status,
            t.attempts AS attempts, t.execution_time AS execution_time, t.error_message AS error_message,
            r.suite_version AS suite_version
          FROM test_results t
          -- The case's results newest first through their index, each run looked up by key until
          -- \`limit\` are in the suite. OFFSET 0 keeps the planner from turning this into a join: on
          -- statistics a bulk load left stale it joined every result of the case to every run of the
          -- suite (1.8 s at 60,000 runs; this way 0.2 ms).
          CROSS JOIN LATERAL (SELECT r.created_at, r.suite_version FROM test_runs r
            WHERE r.id = t.test_run_id AND r.user_id = t.user_id AND ${scopeCondition(scope)} OFFSET 0) r
          WHERE t.user_id = ${userId}::uuid AND t.test_case_name = ${name}
          ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit}`,
      );
      return found.map((row) => ({
        run_id: String(row.run_id),
        created_at: new Date(row.created_at as string | Date),
        status: String(row.status),
        attempts: Number(row.attempts),
        execution_time: numberOrNull(row.execution_time),
        error_message: (row.error_message as string | null) ?? null,
        suite_version: numberOrNull(row.suite_version),
      }));
    },

    /** Whether the saved suite is the user's. */
    async ownsSuite(userId: string, suiteId: string): Promise<boolean> {
      if (!isUuid(suiteId)) return false;
      const found = await rows(
        orm,
        sql`SELECT 1 FROM saved_suites WHERE id = ${suiteId}::uuid AND user_id = ${userId}::uuid`,
      );
      return found.length > 0;
    },

    /** Every saved version of one of the user's suites, oldest first. */
    async suiteVersions(userId: string, suiteId: string): Promise<SuiteVersionRow[]> {
      if (!isUuid(suiteId)) return [];
      const found = await rows<Record<string, unknown>>(
        orm,
        sql`SELECT v.version, v.test_cases, v.saved_by, v.change, v.saved_at
          FROM saved_suite_versions v JOIN saved_suites s ON s.id = v.suite_id
          WHERE s.user_id = ${userId}::uuid AND v.suite_id = ${suiteId}::uuid
          ORDER BY v.version`,
      );
      return found.map((row) => ({
        version: Number(row.version),
        test_cases: (row.test_cases as unknown[]) ?? [],
        saved_by: String(row.saved_by),
        change: String(row.change),
        saved_at: new Date(row.saved_at as string | Date),
      }));
    },
  };
}
export type HistoryRepository = ReturnType<typeof historyRepository>;
