import { type SQL, sql } from 'drizzle-orm';
import { daySums, summariseSpan, wholeDays } from './analytics-days';
import { type AnalyticsRange, DAY_MS, heavyRows, iso, rows, runsOf } from './analytics-sql';
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
 * which a run's end makes ahead (analytics-rollups.ts); a day that has none (its results changed since)
 * is made here first. Only the partial days at its ends are read result by
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
  if (first < end && (await missingDays(orm, userId, first, end)))
    await summariseSpan(orm, userId, first, end);
  const project = range.project_id ? sql`AND project_id = ${range.project_id}::uuid` : sql``;
  const firstDay = sql`${first.toISOString().slice(0, 10)}::date`;
  const endDay = sql`${end.toISOString().slice(0, 10)}::date`;
  // The results outside the summarised days: two ranges of the run index, one of which is empty.
  const partial = sql`${runsOf(userId, range)} AND (r.created_at < ${first.toISOString()}::timestamptz
    OR r.created_at >= ${end.toISOString()}::timestamptz)`;
  // The summarised days of the range.
  const summaries = sql`analytics_case_days d
    WHERE d.user_id = ${userId}::uuid AND d.day >= ${firstDay} AND d.day < ${endDay}`;
  const [row] = await heavyRows<Record<string, unknown>>(
    orm,
    sql`WITH ${daySums(partial)}, segments AS (
        SELECT ${SEGMENT_COLUMNS} FROM case_days
        UNION ALL
        SELECT ${SEGMENT_COLUMNS} FROM ${summaries} ${project}
      ), case_ids AS (
        SELECT case_key, project_id, suite_id, url, suite_name, name FROM segments
        GROUP BY case_key, project_id, suite_id, url, suite_name, name
      )${flakyCtes(range.top)}${slowCtes(range.top, summaries)}, steps AS (
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

/** Whether a day of [first, end) has no summaries: counted on the key alone, without the lock. */
async function missingDays(orm: Drizzle, userId: string, first: Date, end: Date): Promise<boolean> {
  const [found] = await rows<{ n: number }>(
    orm,
    sql`SELECT count(*)::int AS n FROM analytics_days WHERE user_id = ${userId}::uuid
      AND day >= ${first.toISOString().slice(0, 10)}::date AND day < ${end.toISOString().slice(0, 10)}::date`,
  );
  return Number(found?.n ?? 0) < Math.round((end.getTime() - first.getTime()) / DAY_MS);
}

/**
 * What the flaky list reads of a case's day: all but its passing times, which only the slowest list
 * reads, one case at a time (slowCtes), so the sorts below move small rows.
 */
const SEGMENT_COLUMNS = sql.raw(
  'case_key, day, project_id, suite_id, url, suite_name, name, suite_version, results, retried_passes, ' +
    'inner_flips, first_pass, first_retried, first_run_id, last_pass, flip_run_ids',
);

/**
 * After `segments` (a case's sums per day): `chained`, each day's verdicts chained to the day
 * before's; `versions`, flips and retried passes per suite version and case; `flaky_top`, the `top`
 * flakiest; `flaky_runs`, the runs that show it. Cases are grouped by their one-text key (CASE_KEY).
 */
function flakyCtes(top: number): SQL {
  return sql`, chained AS (
        -- A flip across midnight: a day's first verdict against the day before's last.
        SELECT case_key, suite_version, day, results, retried_passes, inner_flips, first_retried, first_run_id,
          flip_run_ids, COALESCE(lag(last_pass) OVER (PARTITION BY case_key, suite_version ORDER BY day)
            <> first_pass, false) AS flips_in
        FROM segments
      ), versions AS (
        SELECT case_key, suite_version, sum(results)::int AS runs,
          (sum(inner_flips) + count(*) FILTER (WHERE flips_in))::int AS flips,
          sum(retried_passes)::int AS retried_passes
        FROM chained GROUP BY case_key, suite_version
      ), flaky_top AS (
        SELECT c.*, v.suite_version, v.runs, v.flips, v.retried_passes,
          CASE WHEN v.runs > 1 THEN v.flips::double precision / (v.runs - 1) ELSE 0 END AS rate
        FROM versions v JOIN case_ids c ON c.case_key = v.case_key WHERE v.flips > 0 OR v.retried_passes > 0
        ORDER BY rate DESC, v.retried_passes DESC, c.name LIMIT ${top}
      ), flaky_runs AS (
        -- Each day's runs newest first, then its first run if it flipped across midnight (and is
        -- not already listed as a retried pass); days newest first.
        SELECT c.case_key, c.suite_version, (array_agg(u.id ORDER BY c.day DESC, u.n))[1:10] AS run_ids
        FROM chained c JOIN flaky_top f ON f.case_key = c.case_key AND f.suite_version IS NOT DISTINCT FROM c.suite_version
        CROSS JOIN LATERAL unnest(c.flip_run_ids || CASE WHEN c.flips_in AND NOT c.first_retried
          THEN ARRAY[c.first_run_id::text] ELSE '{}'::text[] END) WITH ORDINALITY AS u(id, n)
        GROUP BY c.case_key, c.suite_version
      )`;
}

/**
 * `slow`: each case's passing times over the range, the `top` slowest by median. A case's times are
 * read through the summaries' (user_id, case_key, day) index, plus its partial days' sums: one small
 * sort per case, not a scan of every case's days for each case (0.8 s at a year of 48 cases).
 */
function slowCtes(top: number, summaries: SQL): SQL {
  return sql`, slow AS (
        SELECT c.*, m.runs, m.max_seconds, m.median_seconds FROM case_ids c
        CROSS JOIN LATERAL (
          SELECT count(v)::int AS runs, max(v) AS max_seconds,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY v) AS median_seconds
          FROM (SELECT unnest(d.pass_times) AS v FROM ${summaries} AND d.case_key = c.case_key
            UNION ALL SELECT unnest(p.pass_times) FROM case_days p WHERE p.case_key = c.case_key) times
        ) m
        WHERE m.runs > 0 ORDER BY m.median_seconds DESC, c.name LIMIT ${top}
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
          FROM flaky_top x ${labelJoin} LEFT JOIN flaky_runs fr ON fr.case_key = x.case_key
            AND fr.suite_version IS NOT DISTINCT FROM x.suite_version) AS flaky`;
}
