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

/** The columns of a case's day sum (analytics_case_days), in one order for every query that moves them. */
const CASE_DAY_COLUMNS =
  'day, project_id, suite_id, url, suite_name, name, suite_version, results, retried_passes, inner_flips, ' +
  'first_pass, first_retried, first_run_id, last_pass, flip_run_ids, pass_times, max_pass_time';
const DAY_MS = 86_400_000;

/**
 * The whole UTC days of a range that have ended by `now`, as [first, end) at midnights; first equals
 * end when there is none. Only these are read from day summaries.
 */
export function wholeDays(range: { from: Date; to: Date }, now: Date): { first: Date; end: Date } {
  const first = Math.ceil(range.from.getTime() / DAY_MS) * DAY_MS;
  const end = Math.floor(Math.min(range.to.getTime(), now.getTime()) / DAY_MS) * DAY_MS;
  return end > first
    ? { first: new Date(first), end: new Date(end) }
    : { first: range.from, end: range.from };
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
  /**
   * Per UTC day, of the results of the runs `where` picks (as `r`): `case_days`, one row per project,
   * suite, version and case in the columns of analytics_case_days, and `step_days`, one per failing step
   * and case. Made into day summaries and computed for a range's partial days alike. Text keys sort
   * bytewise (COLLATE "C"): the grouping needs no language order, and PGlite's locale-aware comparisons
   * made each sort of 15,000 rows take 100 ms.
   */
  const daySums = (where: SQL) => sql`res AS MATERIALIZED (
      SELECT (r.created_at AT TIME ZONE 'UTC')::date AS day, r.project_id, t.test_case_name COLLATE "C" AS name,
        t.test_run_id AS run_id, r.created_at, t.status, t.status <> 'failed' AS pass, t.execution_time,
        r.suite_id, CASE WHEN r.suite_id IS NOT NULL THEN r.suite_version END AS suite_version,
        CASE WHEN r.suite_id IS NULL THEN r.url END COLLATE "C" AS url,
        CASE WHEN r.suite_id IS NULL THEN COALESCE(r.test_suite_name, '') END COLLATE "C" AS suite_name,
        CASE WHEN t.status = 'failed' AND jsonb_typeof(t.steps) = 'array' THEN
          (SELECT COALESCE(NULLIF(e.value->>'description', ''), e.value->>'action')
            FROM jsonb_array_elements(t.steps) WITH ORDINALITY AS e(value, n)
            WHERE e.value->>'status' IN ('error', 'failed') ORDER BY e.n LIMIT 1) END AS step
      FROM test_runs r JOIN test_results t ON t.test_run_id = r.id
      WHERE ${where} AND t.status IN ('passed', 'flaky', 'failed')
        -- The runs' results through the run index, whatever the planner guesses of how many runs match.
        AND t.test_run_id = ANY (ARRAY(SELECT r.id FROM test_runs r WHERE ${where}))
    ), case_days AS (
      SELECT day, project_id, suite_id, url, suite_name, name, suite_version, count(*)::int AS results,
        (count(*) FILTER (WHERE status = 'flaky'))::int AS retried_passes,
        (count(*) FILTER (WHERE previous_pass <> pass))::int AS inner_flips,
        (array_agg(pass ORDER BY created_at, run_id))[1] AS first_pass,
        (array_agg(status = 'flaky' ORDER BY created_at, run_id))[1] AS first_retried,
        (array_agg(run_id ORDER BY created_at, run_id))[1] AS first_run_id,
        (array_agg(pass ORDER BY created_at DESC, run_id DESC))[1] AS last_pass,
        COALESCE((array_agg(run_id::text ORDER BY created_at DESC, run_id DESC)
          FILTER (WHERE previous_pass <> pass OR status = 'flaky'))[1:10], '{}'::text[]) AS flip_run_ids,
        COALESCE(array_agg(execution_time) FILTER (WHERE pass AND execution_time IS NOT NULL),
          '{}'::double precision[]) AS pass_times,
        max(execution_time) FILTER (WHERE pass) AS max_pass_time
      FROM (SELECT *, lag(pass) OVER (PARTITION BY day, project_id, suite_id, url, suite_name, name, suite_version
          ORDER BY created_at, run_id) AS previous_pass FROM res) ordered
      GROUP BY day, project_id, suite_id, url, suite_name, name, suite_version
    ), step_days AS (
      SELECT day, project_id, step, name, count(*)::int AS failures, max(created_at) AS last_at,
        (array_agg(run_id ORDER BY created_at DESC, run_id DESC))[1] AS last_run_id
      FROM res WHERE step IS NOT NULL GROUP BY day, project_id, step, name
    )`;

  /**
   * Makes the day summaries of [first, end) that do not exist, under the user's analytics lock (taken
   * shared by the triggers that forget a day when one of its results or runs changes).
   */
  const summariseDays = (userId: string, first: Date, end: Date) =>
    orm.transaction(async (tx) => {
      const t = tx as unknown as Drizzle;
      await t.execute(sql`SELECT pg_advisory_xact_lock(727172002, hashtext(${userId}))`);
      const made = await rows<{ day: string }>(
        t,
        sql`INSERT INTO analytics_days (user_id, day)
          SELECT ${userId}::uuid, d::date FROM generate_series(${first.toISOString()}::timestamptz AT TIME ZONE 'UTC',
            ${end.toISOString()}::timestamptz AT TIME ZONE 'UTC' - interval '1 day', interval '1 day') AS d
          ON CONFLICT DO NOTHING RETURNING to_char(day, 'YYYY-MM-DD') AS day`,
      );
      if (made.length === 0) return;
      const days = made.map((m) => m.day).sort();
      const from = new Date(`${days[0]}T00:00:00Z`);
      const to = new Date(Date.parse(`${days[days.length - 1]}T00:00:00Z`) + DAY_MS);
      // Sorting up to a year of results by case and time: with the default 4 MB the sorts spill to disk.
      await t.execute(sql`SET LOCAL work_mem = '64MB'`);
      await t.execute(
        sql`WITH ${daySums(sql`r.user_id = ${userId}::uuid AND r.created_at >= ${from.toISOString()}::timestamptz
            AND r.created_at < ${to.toISOString()}::timestamptz
            AND (r.created_at AT TIME ZONE 'UTC')::date = ANY(${`{${days.join(',')}}`}::date[])`)},
          cases AS (
            INSERT INTO analytics_case_days (user_id, ${sql.raw(CASE_DAY_COLUMNS)})
            SELECT ${userId}::uuid, ${sql.raw(CASE_DAY_COLUMNS)} FROM case_days RETURNING 1)
          INSERT INTO analytics_step_days (user_id, day, project_id, step, name, failures, last_at, last_run_id)
          SELECT ${userId}::uuid, day, project_id, step, name, failures, last_at, last_run_id FROM step_days`,
      );
    });

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
     * What the user's case results of the range say (docs/HISTORY.md#analytics):
     * - slowest: cases by their median time when they passed (passed or flaky);
     * - failing steps: the step each failed case stopped at (its first step in error), by its text;
     * - flaky: per suite version and case, ordered by run time, the flips between pass (passed or
     *   flaky) and failed, and the passes on a retry; cases with either, by flip rate then retried passes.
     * A case is one within its project and suite: a saved suite across its runs (its versions apart for
     * flips), an ad-hoc one as its name on its URL.
     *
     * The range's whole UTC days that have ended are read from their day summaries (0012_analytics_days.sql),
     * made here first for the days that have none; only the partial days at its ends are read result by
     * result, through the same per-day sums, so both paths give the same figures. Reading every result
     * of 30 days took 0.4-0.9 s at 20,000 runs (docs/PERFORMANCE.md#history-and-analytics).
     */
    async caseFigures(
      userId: string,
      range: AnalyticsRange,
      now: Date = new Date(),
    ): Promise<{ slowest: SlowTestRow[]; failing: FailingStepRow[]; flaky: FlakyRow[] }> {
      const { first, end } = wholeDays(range, now);
      if (first < end) await summariseDays(userId, first, end);
      const project = range.project_id ? sql`AND project_id = ${range.project_id}::uuid` : sql``;
      const firstDay = sql`${first.toISOString().slice(0, 10)}::date`;
      const endDay = sql`${end.toISOString().slice(0, 10)}::date`;
      // The results outside the summarised days: two ranges of the run index, one of which is empty.
      const partial = sql`${runsOf(userId, range)} AND (r.created_at < ${first.toISOString()}::timestamptz
        OR r.created_at >= ${end.toISOString()}::timestamptz)`;
      const label = sql.raw(`COALESCE(s.name, NULLIF(x.suite_name, ''), x.url)`);
      const labelJoin = sql`LEFT JOIN saved_suites s ON s.id = x.suite_id AND s.user_id = ${userId}::uuid`;
      const caseKey = sql.raw('project_id, suite_id, url, suite_name, name');
      const [row] = await rows<Record<string, unknown>>(
        orm,
        sql`WITH ${daySums(partial)}, segments AS (
            SELECT ${sql.raw(CASE_DAY_COLUMNS)} FROM case_days
            UNION ALL
            SELECT ${sql.raw(CASE_DAY_COLUMNS)} FROM analytics_case_days
            WHERE user_id = ${userId}::uuid AND day >= ${firstDay} AND day < ${endDay} ${project}
          ), chained AS (
            -- A flip across midnight: a day's first verdict against the day before's last.
            SELECT *, COALESCE(lag(last_pass) OVER (PARTITION BY ${caseKey}, suite_version ORDER BY day)
              <> first_pass, false) AS flips_in
            FROM segments
          ), versions AS (
            SELECT ${caseKey}, suite_version, sum(results)::int AS runs,
              (sum(inner_flips) + count(*) FILTER (WHERE flips_in))::int AS flips,
              sum(retried_passes)::int AS retried_passes
            FROM chained GROUP BY ${caseKey}, suite_version
          ), flaky_top AS (
            SELECT *, CASE WHEN runs > 1 THEN flips::double precision / (runs - 1) ELSE 0 END AS rate
            FROM versions WHERE flips > 0 OR retried_passes > 0
            ORDER BY rate DESC, retried_passes DESC, name LIMIT ${range.top}
          ), flaky_runs AS (
            -- Each day's runs newest first, then its first run if it flipped across midnight (and is
            -- not already listed as a retried pass); days newest first.
            SELECT c.project_id, c.suite_id, c.url, c.suite_name, c.name, c.suite_version,
              (array_agg(u.id ORDER BY c.day DESC, u.n))[1:10] AS run_ids
            FROM chained c JOIN flaky_top f ON f.name = c.name AND f.project_id IS NOT DISTINCT FROM c.project_id
              AND f.suite_id IS NOT DISTINCT FROM c.suite_id AND f.url IS NOT DISTINCT FROM c.url
              AND f.suite_name IS NOT DISTINCT FROM c.suite_name AND f.suite_version IS NOT DISTINCT FROM c.suite_version
            CROSS JOIN LATERAL unnest(c.flip_run_ids || CASE WHEN c.flips_in AND NOT c.first_retried
              THEN ARRAY[c.first_run_id::text] ELSE '{}'::text[] END) WITH ORDINALITY AS u(id, n)
            GROUP BY c.project_id, c.suite_id, c.url, c.suite_name, c.name, c.suite_version
          ), cases AS (
            SELECT ${caseKey}, sum(cardinality(pass_times))::int AS runs, max(max_pass_time) AS max_seconds
            FROM segments GROUP BY ${caseKey} HAVING sum(cardinality(pass_times)) > 0
          ), slow AS (
            -- Each case's median over its days' passing times: sorting numbers per case, not every
            -- time by its case's text keys.
            SELECT c.*, (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY v)
                FROM segments g CROSS JOIN LATERAL unnest(g.pass_times) AS v
                WHERE g.name = c.name AND g.project_id IS NOT DISTINCT FROM c.project_id
                  AND g.suite_id IS NOT DISTINCT FROM c.suite_id AND g.url IS NOT DISTINCT FROM c.url
                  AND g.suite_name IS NOT DISTINCT FROM c.suite_name) AS median_seconds
            FROM cases c ORDER BY median_seconds DESC, name LIMIT ${range.top}
          ), steps AS (
            SELECT step, name, failures, last_at, last_run_id FROM step_days
            UNION ALL
            SELECT step, name, failures, last_at, last_run_id FROM analytics_step_days
            WHERE user_id = ${userId}::uuid AND day >= ${firstDay} AND day < ${endDay} ${project}
          ), failing AS (
            SELECT step, sum(failures)::int AS failures, count(DISTINCT name)::int AS cases, max(last_at) AS last_at,
              (array_agg(last_run_id::text ORDER BY last_at DESC, last_run_id DESC))[1] AS last_run_id
            FROM steps GROUP BY step ORDER BY failures DESC, last_at DESC, step LIMIT ${range.top}
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
                'retried_passes', x.retried_passes, 'run_ids', COALESCE(fr.run_ids, '{}'))
              ORDER BY x.rate DESC, x.retried_passes DESC, x.name), '[]'::json)
              FROM flaky_top x ${labelJoin} LEFT JOIN flaky_runs fr ON fr.name = x.name
                AND fr.project_id IS NOT DISTINCT FROM x.project_id AND fr.suite_id IS NOT DISTINCT FROM x.suite_id
                AND fr.url IS NOT DISTINCT FROM x.url AND fr.suite_name IS NOT DISTINCT FROM x.suite_name
                AND fr.suite_version IS NOT DISTINCT FROM x.suite_version) AS flaky`,
      );
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
