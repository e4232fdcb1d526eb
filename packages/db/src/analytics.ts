import { type SQL, sql } from 'drizzle-orm';
import { caseFigures } from './analytics-case-figures';
import { type RebuildReport, rebuildRollups, rollUpRun } from './analytics-rollups';
import { type AnalyticsRange, heavyRows, iso, numbers, origin, rows, runsOf } from './analytics-sql';
import type { Drizzle } from './database';

// The analytics of a range, computed in SQL (docs/HISTORY.md#analytics): each query reads the user's
// runs of the range through the (user_id, created_at) index, and days are counted in the asked time
// zone. The queries are independent; the service runs them at once. Results are reached through the
// user's runs by test_run_id alone: adding `t.user_id = r.user_id` led the planner (without fresh
// statistics, as on PGlite, which never autovacuums) to AND in a scan of every result of the user per
// run, 0.7 s at 2,000 runs instead of a few milliseconds.

export type { FailingStepRow, FlakyRow, SlowTestRow } from './analytics-case-figures';
export type { RebuildReport } from './analytics-rollups';
export type { AnalyticsRange } from './analytics-sql';

export interface DailyRow {
  day: string;
  runs: number;
  passed_runs: number;
  failed_runs: number;
  tests: number;
  failed_tests: number;
  flaky_tests: number;
}
export interface DurationRow {
  key: string;
  suite: string;
  suite_id: string | null;
  /** Null on the suite's overall line. */
  day: string | null;
  runs: number;
  median_seconds: number;
  p95_seconds: number;
}
export interface ModelCostRow {
  day: string;
  engine: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}
export interface DesignScoreRow {
  site: string;
  created_at: string;
  score: number;
  comparison_id: string;
}

/** Analytics over one user's history; every query takes the owner's id. */
export function analyticsRepository(orm: Drizzle) {
  return {
    daily: (userId: string, range: AnalyticsRange) => daily(orm, userId, range),
    durations: (userId: string, range: AnalyticsRange) => durations(orm, userId, range),
    caseFigures: (userId: string, range: AnalyticsRange, now?: Date) => caseFigures(orm, userId, range, now),
    modelCost: (userId: string, range: AnalyticsRange) => modelCost(orm, userId, range),
    designScores: (userId: string, range: AnalyticsRange) => designScores(orm, userId, range),
    /** A run is over: its day's case summaries made ahead of the queries (analytics-rollups.ts). */
    rollUpRun: (userId: string, runId: string) => rollUpRun(orm, userId, runId),
    /** Every rollup of one user, or of all, made again (`npm run analytics:rebuild`). */
    rebuild: (userId?: string, onProgress?: (message: string) => void): Promise<RebuildReport> =>
      rebuildRollups(orm, userId, onProgress),
  };
}
export type AnalyticsRepository = ReturnType<typeof analyticsRepository>;

/** Per day with finished runs: runs, passed (no failed case), failed, and test counts. */
async function daily(orm: Drizzle, userId: string, range: AnalyticsRange): Promise<DailyRow[]> {
  const found = await rows<Record<string, unknown>>(
    orm,
    sql`SELECT to_char(d, 'YYYY-MM-DD') AS day, runs, passed_runs, failed_runs, tests, failed_tests, flaky_tests
      FROM (SELECT (r.created_at AT TIME ZONE ${range.tz})::date AS d, count(*)::int AS runs,
          (count(*) FILTER (WHERE r.status = 'completed' AND r.failed_tests = 0))::int AS passed_runs,
          (count(*) FILTER (WHERE r.status IN ('failed', 'error')
            OR (r.status = 'completed' AND r.failed_tests > 0)))::int AS failed_runs,
          COALESCE(sum(r.total_tests), 0)::int AS tests, COALESCE(sum(r.failed_tests), 0)::int AS failed_tests,
          COALESCE(sum(r.flaky_tests), 0)::int AS flaky_tests
        FROM analytics_runs r WHERE ${runsOf(userId, range)} GROUP BY 1) days
      ORDER BY d`,
  );
  return found.map((row) =>
    numbers<DailyRow>(row, ['runs', 'passed_runs', 'failed_runs', 'tests', 'failed_tests', 'flaky_tests']),
  );
}

/**
 * Completed runs' durations per suite: median and p95, overall (day null) and per day. Keys group
 * bytewise (COLLATE "C"): the order of suites is the service's, and PGlite's locale-aware comparisons
 * made the sort of a year's runs take most of a second.
 */
async function durations(orm: Drizzle, userId: string, range: AnalyticsRange): Promise<DurationRow[]> {
  // Grouped by the suite's key alone (its name follows from it: a saved suite's, else its run's name on
  // its URL), so the sort moves a key, a day and a number per run.
  const found = await heavyRows<Record<string, unknown>>(
    orm,
    sql`SELECT f.key, COALESCE(s.name, f.label) AS suite, f.suite_id::text AS suite_id,
        to_char(f.d, 'YYYY-MM-DD') AS day, f.runs, f.median_seconds, f.p95_seconds
      FROM (SELECT key, suite_id, d, min(label) AS label, count(*)::int AS runs,
          percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) AS median_seconds,
          percentile_cont(0.95) WITHIN GROUP (ORDER BY seconds) AS p95_seconds
        FROM (SELECT r.suite_key COLLATE "C" AS key, r.suite_id, r.suite_label COLLATE "C" AS label,
            (r.created_at AT TIME ZONE ${range.tz})::date AS d, r.execution_time_seconds AS seconds
          FROM analytics_runs r
          WHERE ${runsOf(userId, range)} AND r.status = 'completed' AND r.execution_time_seconds IS NOT NULL) runs
        GROUP BY GROUPING SETS ((key, suite_id), (key, suite_id, d))) f
      LEFT JOIN saved_suites s ON s.id = f.suite_id AND s.user_id = ${userId}::uuid
      ORDER BY f.key, f.d NULLS FIRST`,
  );
  return found.map((row) => numbers<DurationRow>(row, ['runs', 'median_seconds', 'p95_seconds']));
}

/**
 * Model calls per day and engine: a run's calls under the run's engine, others (generations,
 * conversations) under their provider and model.
 */
async function modelCost(orm: Drizzle, userId: string, range: AnalyticsRange): Promise<ModelCostRow[]> {
  const conditions: SQL[] = [
    sql`m.user_id = ${userId}::uuid`,
    sql`m.created_at >= ${range.from.toISOString()}::timestamptz`,
    sql`m.created_at < ${range.to.toISOString()}::timestamptz`,
  ];
  if (range.project_id) conditions.push(sql`r.project_id = ${range.project_id}::uuid`);
  // The runs' engines by their key, a lookup per model call (a year's calls are a few thousand), not a
  // hash of every run of the user (a scan of test_runs: 130 ms at 60,000 runs).
  const found = await rows<Record<string, unknown>>(
    orm,
    sql`SELECT to_char(d, 'YYYY-MM-DD') AS day, engine, calls, input_tokens, output_tokens, cost_usd
      FROM (SELECT (m.created_at AT TIME ZONE ${range.tz})::date AS d,
          COALESCE(NULLIF(r.engine, ''), m.provider || '/' || m.model) AS engine,
          count(*)::int AS calls, COALESCE(sum(m.input_tokens), 0)::bigint AS input_tokens,
          COALESCE(sum(m.output_tokens), 0)::bigint AS output_tokens,
          COALESCE(sum(m.cost_usd), 0)::double precision AS cost_usd
        FROM model_usage m LEFT JOIN LATERAL (SELECT r.engine, r.project_id FROM test_runs r
          WHERE r.id = m.test_run_id AND r.user_id = m.user_id OFFSET 0) r ON true
        WHERE ${sql.join(conditions, sql` AND `)}
        GROUP BY 1, 2) calls
      ORDER BY d, engine`,
  );
  return found.map((row) =>
    numbers<ModelCostRow>(row, ['calls', 'input_tokens', 'output_tokens', 'cost_usd']),
  );
}

/**
 * Design comparison scores per site (origin), oldest first. Comparisons belong to no project: with
 * a project, the sites of its environments' base URLs.
 */
async function designScores(orm: Drizzle, userId: string, range: AnalyticsRange): Promise<DesignScoreRow[]> {
  const conditions: SQL[] = [
    sql`c.user_id = ${userId}::uuid`,
    sql`c.created_at >= ${range.from.toISOString()}::timestamptz`,
    sql`c.created_at < ${range.to.toISOString()}::timestamptz`,
    sql`jsonb_typeof(c.results->'overall_similarity') = 'number'`,
  ];
  if (range.project_id) {
    conditions.push(sql`${origin('c.website_url')} IN (SELECT ${origin('e.base_url')} FROM environments e
      WHERE e.user_id = ${userId}::uuid AND e.project_id = ${range.project_id}::uuid)`);
  }
  const found = await rows<Record<string, unknown>>(
    orm,
    sql`SELECT COALESCE(${origin('c.website_url')}, c.website_url) AS site, ${iso('c.created_at')} AS created_at,
        (c.results->>'overall_similarity')::double precision AS score, c.id::text AS comparison_id
      FROM comparisons c WHERE ${sql.join(conditions, sql` AND `)}
      ORDER BY site, c.created_at, c.id`,
  );
  return found.map((row) => numbers<DesignScoreRow>(row, ['score']));
}
