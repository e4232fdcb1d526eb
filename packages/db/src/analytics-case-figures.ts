import { type SQL, sql } from 'drizzle-orm';
import { CASE_DAY_COLUMNS, daySums, summariseDays, wholeDays } from './analytics-days';
import { type AnalyticsRange, iso, rows, runsOf } from './analytics-sql';
import type { Drizzle } from './database';

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
export async function caseFigures(
  orm: Drizzle,
  userId: string,
  range: AnalyticsRange,
  now: Date = new Date(),
): Promise<{ slowest: SlowTestRow[]; failing: FailingStepRow[]; flaky: FlakyRow[] }> {
  const { first, end } = wholeDays(range, now);
  if (first < end) await summariseDays(orm, userId, first, end);
  const project = range.project_id ? sql`AND project_id = ${range.project_id}::uuid` : sql``;
  const firstDay = sql`${first.toISOString().slice(0, 10)}::date`;
  const endDay = sql`${end.toISOString().slice(0, 10)}::date`;
  // The results outside the summarised days: two ranges of the run index, one of which is empty.
  const partial = sql`${runsOf(userId, range)} AND (r.created_at < ${first.toISOString()}::timestamptz
    OR r.created_at >= ${end.toISOString()}::timestamptz)`;
  const [row] = await rows<Record<string, unknown>>(
    orm,
    sql`WITH ${daySums(partial)}, segments AS (
        SELECT ${sql.raw(CASE_DAY_COLUMNS)} FROM case_days
        UNION ALL
        SELECT ${sql.raw(CASE_DAY_COLUMNS)} FROM analytics_case_days
        WHERE user_id = ${userId}::uuid AND day >= ${firstDay} AND day < ${endDay} ${project}
      )${flakyCtes(range.top)}${slowCtes(range.top)}, steps AS (
        SELECT step, name, failures, last_at, last_run_id FROM step_days
        UNION ALL
        SELECT step, name, failures, last_at, last_run_id FROM analytics_step_days
        WHERE user_id = ${userId}::uuid AND day >= ${firstDay} AND day < ${endDay} ${project}
      ), failing AS (
        SELECT step, sum(failures)::int AS failures, count(DISTINCT name)::int AS cases, max(last_at) AS last_at,
          (array_agg(last_run_id::text ORDER BY last_at DESC, last_run_id DESC))[1] AS last_run_id
        FROM steps GROUP BY step ORDER BY failures DESC, last_at DESC, step LIMIT ${range.top}
      )
      ${figuresSelect(userId)}`,
  );
  const json = <T>(value: unknown): T[] =>
    (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as T[];
  return {
    slowest: json<SlowTestRow>(row?.slowest),
    failing: json<FailingStepRow>(row?.failing),
    flaky: json<FlakyRow>(row?.flaky).map((f) => ({ ...f, run_ids: f.run_ids ?? [] })),
  };
}

/** A case's key columns in the summaries: within its project and suite (an ad-hoc suite by URL and name). */
const CASE_KEY = sql.raw('project_id, suite_id, url, suite_name, name');

/**
 * After `segments` (a case's sums per day): `chained`, each day's verdicts chained to the day
 * before's; `versions`, flips and retried passes per suite version and case; `flaky_top`, the `top`
 * flakiest; `flaky_runs`, the runs that show it.
 */
function flakyCtes(top: number): SQL {
  const caseKey = CASE_KEY;
  return sql`, chained AS (
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
        ORDER BY rate DESC, retried_passes DESC, name LIMIT ${top}
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
      )`;
}

/** `cases` and `slow`: each case's passing times over the range, the `top` slowest by median. */
function slowCtes(top: number): SQL {
  const caseKey = CASE_KEY;
  return sql`, cases AS (
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
        FROM cases c ORDER BY median_seconds DESC, name LIMIT ${top}
      )`;
}

/** The three lists as JSON, each in its order, suites named by their saved name or URL. */
function figuresSelect(userId: string): SQL {
  const label = sql.raw(`COALESCE(s.name, NULLIF(x.suite_name, ''), x.url)`);
  const labelJoin = sql`LEFT JOIN saved_suites s ON s.id = x.suite_id AND s.user_id = ${userId}::uuid`;
  return sql`
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
            AND fr.suite_version IS NOT DISTINCT FROM x.suite_version) AS flaky`;
}
