import { type SQL, sql } from 'drizzle-orm';
import type { Drizzle } from './database';

// The analytics of a range, computed in SQL (docs/HISTORY.md#analytics): each query reads the user's
// runs of the range through the (user_id, created_at) index, and days are counted in the asked time
// zone. The queries are independent; the service runs them at once. Results are reached through the
// user's runs by test_run_id alone: adding `t.user_id = r.user_id` led the planner (without fresh
// statistics, as on PGlite, which never autovacuums) to AND in a scan of every result of the user per
// run, 0.7 s at 2,000 runs instead of a few milliseconds.

export interface AnalyticsRange {
  /** Inclusive. */
  from: Date;
  /** Exclusive. */
  to: Date;
  /** An IANA zone PostgreSQL knows (the service checks it first). */
  tz: string;
  project_id?: string;
  /** How many rows the ranked lists answer. */
  top: number;
}

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
export interface SlowTestRow {
  name: string;
  suite: string;
  runs: number;
  median_seconds: number;
  max_seconds: number;
}
export interface FailingStepRow {
  step: string;
  failures: number;
  cases: number;
  last_seen: string;
  last_run_id: string;
}
export interface FlakyRow {
  name: string;
  suite: string;
  suite_id: string | null;
  suite_version: number | null;
  runs: number;
  flips: number;
  retried_passes: number;
  run_ids: string[];
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

const iso = (column: string) =>
  sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
/** The scheme and host of a URL, lower-cased: a design comparison's site. */
const origin = (column: string) =>
  sql.raw(`lower(substring(${column} from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]+'))`);

async function rows<T>(orm: Drizzle, query: SQL): Promise<T[]> {
  const result = (await orm.execute(query)) as unknown as { rows: Record<string, unknown>[] };
  return result.rows as T[];
}

/** node-postgres answers bigint, numeric and aggregates as text; PGlite as numbers. */
function numbers<T>(row: Record<string, unknown>, keys: (keyof T)[]): T {
  const out = { ...row };
  for (const key of keys as string[]) out[key] = out[key] === null ? null : Number(out[key]);
  return out as T;
}

/** Analytics over one user's history; every query takes the owner's id. */
export function analyticsRepository(orm: Drizzle) {
  /** The user's runs of the range (and project), as `r`, with their saved suite as `s`. */
  const runsOf = (userId: string, range: AnalyticsRange): SQL => {
    const conditions: SQL[] = [
      sql`r.user_id = ${userId}::uuid`,
      sql`r.created_at >= ${range.from.toISOString()}::timestamptz`,
      sql`r.created_at < ${range.to.toISOString()}::timestamptz`,
    ];
    if (range.project_id) conditions.push(sql`r.project_id = ${range.project_id}::uuid`);
    return sql.join(conditions, sql` AND `);
  };
  const day = (column: string, tz: string) =>
    sql`to_char((${sql.raw(column)} AT TIME ZONE ${tz})::date, 'YYYY-MM-DD')`;
  const suiteJoin = sql`LEFT JOIN saved_suites s ON s.id = r.suite_id AND s.user_id = r.user_id`;
  const suiteLabel = sql`COALESCE(s.name, NULLIF(r.test_suite_name, ''), r.url)`;
  // A saved suite is one suite across its runs; an ad-hoc one is its name on its URL.
  const suiteKey = sql`COALESCE(r.suite_id::text, 'adhoc ' || r.url || ' ' || COALESCE(r.test_suite_name, ''))`;

  return {
    /** Per day with finished runs: runs, passed (no failed case), failed, and test counts. */
    async daily(userId: string, range: AnalyticsRange): Promise<DailyRow[]> {
      const found = await rows<Record<string, unknown>>(
        orm,
        sql`SELECT ${day('r.created_at', range.tz)} AS day, count(*)::int AS runs,
            (count(*) FILTER (WHERE r.status = 'completed' AND r.failed_tests = 0))::int AS passed_runs,
            (count(*) FILTER (WHERE r.status IN ('failed', 'error')
              OR (r.status = 'completed' AND r.failed_tests > 0)))::int AS failed_runs,
            COALESCE(sum(r.total_tests), 0)::int AS tests, COALESCE(sum(r.failed_tests), 0)::int AS failed_tests,
            COALESCE(sum(r.flaky_tests), 0)::int AS flaky_tests
          FROM test_runs r WHERE ${runsOf(userId, range)} AND r.status NOT IN ('pending', 'running')
          GROUP BY 1 ORDER BY 1`,
      );
      return found.map((row) =>
        numbers<DailyRow>(row, [
          'runs',
          'passed_runs',
          'failed_runs',
          'tests',
          'failed_tests',
          'flaky_tests',
        ]),
      );
    },

    /** Completed runs' durations per suite: median and p95, overall (day null) and per day. */
    async durations(userId: string, range: AnalyticsRange): Promise<DurationRow[]> {
      const found = await rows<Record<string, unknown>>(
        orm,
        sql`SELECT key, suite, suite_id, day, count(*)::int AS runs,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) AS median_seconds,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY seconds) AS p95_seconds
          FROM (SELECT ${suiteKey} AS key, ${suiteLabel} AS suite, r.suite_id::text AS suite_id,
              ${day('r.created_at', range.tz)} AS day, r.execution_time_seconds AS seconds
            FROM test_runs r ${suiteJoin}
            WHERE ${runsOf(userId, range)} AND r.status = 'completed' AND r.execution_time_seconds IS NOT NULL) d
          GROUP BY GROUPING SETS ((key, suite, suite_id), (key, suite, suite_id, day))
          ORDER BY key, day NULLS FIRST`,
      );
      return found.map((row) => numbers<DurationRow>(row, ['runs', 'median_seconds', 'p95_seconds']));
    },

    /**
     * What the user's case results of the range say, in one pass over them (the three lists read the
     * same rows; reading them once is what keeps 20,000 runs under the budget,
     * docs/PERFORMANCE.md#history-and-analytics):
     * - slowest: cases by their median time when they passed (passed or flaky);
     * - failing steps: the step each failed case stopped at (its first step in error), by its text;
     * - flaky: per suite version and case, ordered by run time, the flips between pass (passed or
     *   flaky) and failed, and the passes on a retry; cases with either, by flip rate then retried passes.
     * A saved suite is one suite across its runs (its versions apart for flips); an ad-hoc one is its
     * name on its URL. The text keys sort bytewise (COLLATE "C"): the grouping needs no language order,
     * and PGlite's locale-aware comparisons made each sort of 15,000 rows take 100 ms.
     */
    async caseFigures(
      userId: string,
      range: AnalyticsRange,
    ): Promise<{ slowest: SlowTestRow[]; failing: FailingStepRow[]; flaky: FlakyRow[] }> {
      const label = sql.raw(`COALESCE(s.name, NULLIF(x.suite_name, ''), x.url)`);
      const labelJoin = sql`LEFT JOIN saved_suites s ON s.id = x.suite_id AND s.user_id = ${userId}::uuid`;
      // The range's results are sorted three times (by case, by step, by suite and time): with the
      // default 4 MB of work memory the sorts of 60,000 rows spilled to disk (0.5 s more on PostgreSQL).
      const [row] = await orm.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
        return rows<Record<string, unknown>>(
          tx as unknown as Drizzle,
          sql`WITH res AS MATERIALIZED (
            SELECT t.test_case_name COLLATE "C" AS name, t.test_run_id AS run_id, r.created_at, t.status,
              t.execution_time, r.suite_id, CASE WHEN r.suite_id IS NOT NULL THEN r.suite_version END AS suite_version,
              CASE WHEN r.suite_id IS NULL THEN r.url END COLLATE "C" AS url,
              CASE WHEN r.suite_id IS NULL THEN COALESCE(r.test_suite_name, '') END COLLATE "C" AS suite_name,
              CASE WHEN t.status = 'failed' AND jsonb_typeof(t.steps) = 'array' THEN
                (SELECT COALESCE(NULLIF(e.value->>'description', ''), e.value->>'action')
                  FROM jsonb_array_elements(t.steps) WITH ORDINALITY AS e(value, n)
                  WHERE e.value->>'status' IN ('error', 'failed') ORDER BY e.n LIMIT 1) END AS step
            FROM test_runs r JOIN test_results t ON t.test_run_id = r.id
            WHERE ${runsOf(userId, range)} AND t.status IN ('passed', 'flaky', 'failed')
          ), failing AS (
            SELECT step, count(*)::int AS failures, count(DISTINCT name)::int AS cases, max(created_at) AS last_at,
              (array_agg(run_id::text ORDER BY created_at DESC, run_id DESC))[1] AS last_run_id
            FROM res WHERE step IS NOT NULL
            GROUP BY step ORDER BY failures DESC, last_at DESC, step LIMIT ${range.top}
          ), figures AS (
            -- One sort serves both lists: the window's order (case, then version, then time) is the
            -- order both groupings need, per suite version (flips) and per case (times).
            SELECT suite_id, url, suite_name, name, suite_version, GROUPING(suite_version) AS whole_case,
              (count(*) FILTER (WHERE pass AND execution_time IS NOT NULL))::int AS passes,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY execution_time)
                FILTER (WHERE pass AND execution_time IS NOT NULL) AS median_seconds,
              max(execution_time) FILTER (WHERE pass) AS max_seconds,
              count(*)::int AS runs,
              (count(*) FILTER (WHERE previous_pass <> pass))::int AS flips,
              (count(*) FILTER (WHERE status = 'flaky'))::int AS retried_passes,
              (array_agg(run_id::text ORDER BY created_at DESC, run_id DESC)
                FILTER (WHERE previous_pass <> pass OR status = 'flaky'))[1:10] AS run_ids
            FROM (SELECT *, status <> 'failed' AS pass,
                lag(status <> 'failed') OVER (PARTITION BY suite_id, url, suite_name, name, suite_version
                  ORDER BY created_at, run_id) AS previous_pass
              FROM res) ordered
            GROUP BY GROUPING SETS ((suite_id, url, suite_name, name, suite_version), (suite_id, url, suite_name, name))
          ), slow AS (
            SELECT name, suite_id, url, suite_name, passes AS runs, median_seconds, max_seconds
            FROM figures WHERE whole_case = 1 AND passes > 0
            ORDER BY median_seconds DESC, name LIMIT ${range.top}
          ), flaky_top AS (
            SELECT *, CASE WHEN runs > 1 THEN flips::double precision / (runs - 1) ELSE 0 END AS rate
            FROM figures WHERE whole_case = 0 AND (flips > 0 OR retried_passes > 0)
            ORDER BY rate DESC, retried_passes DESC, name LIMIT ${range.top}
          )
          SELECT
            (SELECT COALESCE(json_agg(json_build_object('name', x.name, 'suite', ${label}, 'runs', x.runs,
                'median_seconds', x.median_seconds, 'max_seconds', x.max_seconds)
              ORDER BY x.median_seconds DESC, x.name), '[]'::json) FROM slow x ${labelJoin}) AS slowest,
            (SELECT COALESCE(json_agg(json_build_object('step', f.step, 'failures', f.failures, 'cases', f.cases,
                'last_seen', ${iso('f.last_at')}, 'last_run_id', f.last_run_id)
              ORDER BY f.failures DESC, f.last_at DESC, f.step), '[]'::json) FROM failing f) AS failing,
            (SELECT COALESCE(json_agg(json_build_object('name', x.name, 'suite', ${label},
                'suite_id', x.suite_id::text, 'suite_version', x.suite_version, 'runs', x.runs, 'flips', x.flips,
                'retried_passes', x.retried_passes, 'run_ids', x.run_ids)
              ORDER BY x.rate DESC, x.retried_passes DESC, x.name), '[]'::json) FROM flaky_top x ${labelJoin}) AS flaky`,
        );
      });
      const json = <T>(value: unknown): T[] =>
        (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as T[];
      return {
        slowest: json<SlowTestRow>(row?.slowest),
        failing: json<FailingStepRow>(row?.failing),
        flaky: json<FlakyRow>(row?.flaky).map((f) => ({ ...f, run_ids: f.run_ids ?? [] })),
      };
    },

    /**
     * Model calls per day and engine: a run's calls under the run's engine, others (generations,
     * conversations) under their provider and model.
     */
    async modelCost(userId: string, range: AnalyticsRange): Promise<ModelCostRow[]> {
      const conditions: SQL[] = [
        sql`m.user_id = ${userId}::uuid`,
        sql`m.created_at >= ${range.from.toISOString()}::timestamptz`,
        sql`m.created_at < ${range.to.toISOString()}::timestamptz`,
      ];
      if (range.project_id) conditions.push(sql`r.project_id = ${range.project_id}::uuid`);
      const found = await rows<Record<string, unknown>>(
        orm,
        sql`SELECT ${day('m.created_at', range.tz)} AS day,
            COALESCE(NULLIF(r.engine, ''), m.provider || '/' || m.model) AS engine,
            count(*)::int AS calls, COALESCE(sum(m.input_tokens), 0)::bigint AS input_tokens,
            COALESCE(sum(m.output_tokens), 0)::bigint AS output_tokens,
            COALESCE(sum(m.cost_usd), 0)::double precision AS cost_usd
          FROM model_usage m LEFT JOIN test_runs r ON r.id = m.test_run_id AND r.user_id = m.user_id
          WHERE ${sql.join(conditions, sql` AND `)}
          GROUP BY 1, 2 ORDER BY 1, 2`,
      );
      return found.map((row) =>
        numbers<ModelCostRow>(row, ['calls', 'input_tokens', 'output_tokens', 'cost_usd']),
      );
    },

    /**
     * Design comparison scores per site (origin), oldest first. Comparisons belong to no project: with
     * a project, the sites of its environments' base URLs.
     */
    async designScores(userId: string, range: AnalyticsRange): Promise<DesignScoreRow[]> {
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
    },
  };
}
export type AnalyticsRepository = ReturnType<typeof analyticsRepository>;
