import { type SQL, sql } from 'drizzle-orm';
import { DAY_MS, rows } from './analytics-sql';
import type { Drizzle } from './database';

// The day summaries of case results (0012_analytics_days.sql): what a summarised day holds, the same
// sums over a range's partial days, and making the summaries that do not exist yet.

/** The columns of a case's day sum (analytics_case_days), in one order for every query that moves them. */
export const CASE_DAY_COLUMNS =
  'day, case_key, project_id, suite_id, url, suite_name, name, suite_version, results, retried_passes, inner_flips, ' +
  'first_pass, first_retried, first_run_id, last_pass, flip_run_ids, pass_times, max_pass_time';
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

/**
 * A case within its project and suite as one text (analytics_case_days.case_key): project, saved suite,
 * or an ad-hoc suite's URL and name, then the case's name. A saved suite's runs have neither URL nor
 * suite name here, an ad-hoc one's both, so no two cases share a key.
 */
export const CASE_KEY =
  sql.raw(`(COALESCE(project_id::text, '') || chr(1) || COALESCE(suite_id::text, '') || chr(1)
  || COALESCE(url, '') || chr(1) || COALESCE(suite_name, '') || chr(1) || name) COLLATE "C"`);

/**
 * Per UTC day, of the results of the runs `where` picks (as `r`): `case_days`, one row per project,
 * suite, version and case in the columns of analytics_case_days, and `step_days`, one per failing step
 * and case. Made into day summaries and computed for a range's partial days alike. Text keys sort
 * bytewise (COLLATE "C"): the grouping needs no language order, and PGlite's locale-aware comparisons
 * made each sort of 15,000 rows take 100 ms.
 */
export const daySums = (where: SQL) => sql`res AS MATERIALIZED (
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
    SELECT day, ${CASE_KEY} AS case_key, project_id, suite_id, url, suite_name, name, suite_version,
      count(*)::int AS results,
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
export const summariseDays = (orm: Drizzle, userId: string, first: Date, end: Date) =>
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
    // Its guesses cost a year's sums past jit_above_cost: compiling took longer than summing (heavyRows).
    await t.execute(sql`SET LOCAL jit = off`);
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

/** Days summarised per transaction: each holds the user's analytics lock for one batch only. */
export const SUMMARY_BATCH_DAYS = 14;

/**
 * `summariseDays` over [first, end), SUMMARY_BATCH_DAYS at a time, each batch committed on its own:
 * what a request made before its statement limit cancelled it is kept, so the next one goes on from
 * there instead of starting over (a year's first summaries on statistics a bulk load left stale took
 * longer than DATABASE_STATEMENT_TIMEOUT_MS in one transaction, so every try was rolled back).
 */
export async function summariseSpan(orm: Drizzle, userId: string, first: Date, end: Date): Promise<void> {
  for (let from = first.getTime(); from < end.getTime(); from += SUMMARY_BATCH_DAYS * DAY_MS) {
    const to = Math.min(end.getTime(), from + SUMMARY_BATCH_DAYS * DAY_MS);
    await summariseDays(orm, userId, new Date(from), new Date(to));
  }
}
