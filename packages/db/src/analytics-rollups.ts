import { sql } from 'drizzle-orm';
import { summariseDays, summariseSpan } from './analytics-days';
import { DAY_MS, rows } from './analytics-sql';
import type { Drizzle } from './database';

// Keeping the analytics rollups (docs/HISTORY.md#rollups) made ahead of the queries: the day summaries of
// case results (analytics_case_days, analytics_step_days) when a run ends, and every rollup again on
// demand (`npm run analytics:rebuild`). analytics_runs needs neither: triggers keep it (0014).

/**
 * A run is over: its UTC day's summaries are made if its results forgot them (the 0012 triggers forget
 * a day whenever a result of it is written). Its day is usually today, not yet one a range reads from
 * summaries; made now, it is ready when the day ends instead of at the first query after. Later results
 * of the day forget it again, so it is never stale. About one day's results: a few milliseconds.
 */
export async function rollUpRun(orm: Drizzle, userId: string, runId: string): Promise<boolean> {
  const [run] = await rows<{ day: string }>(
    orm,
    sql`SELECT to_char((created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day FROM test_runs
      WHERE id = ${runId}::uuid AND user_id = ${userId}::uuid`,
  );
  if (!run) return false;
  const first = new Date(`${run.day}T00:00:00Z`);
  await summariseDays(orm, userId, first, new Date(first.getTime() + DAY_MS));
  return true;
}

export interface RebuildReport {
  users: number;
  runs: number;
  days: number;
  milliseconds: number;
}

/**
 * Every rollup of one user (of every user without one) made again from the runs and results: the
 * finished runs (analytics_runs), then the day summaries of every UTC day from the user's first run to
 * today, `SUMMARY_BATCH_DAYS` (analytics-days.ts) at a time, so queries and runs of the user wait for one batch at most.
 */
export async function rebuildRollups(
  orm: Drizzle,
  userId?: string,
  onProgress?: (message: string) => void,
): Promise<RebuildReport> {
  const started = Date.now();
  const [{ runs }] = await rows<{ runs: number }>(
    orm,
    sql`SELECT analytics_rebuild_runs(${userId ?? null}::uuid) AS runs`,
  );
  const spans = await rows<{ user_id: string; first: string }>(
    orm,
    sql`SELECT user_id::text, to_char(min(created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS first
      FROM test_runs ${userId ? sql`WHERE user_id = ${userId}::uuid` : sql``} GROUP BY user_id`,
  );
  const end = Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS;
  let days = 0;
  for (const span of spans) {
    await orm.execute(sql`DELETE FROM analytics_days WHERE user_id = ${span.user_id}::uuid`);
    const from = Date.parse(`${span.first}T00:00:00Z`);
    await summariseSpan(orm, span.user_id, new Date(from), new Date(end));
    days += Math.max(0, (end - from) / DAY_MS);
    onProgress?.(`user ${span.user_id}: days from ${span.first} summarised`);
  }
  return { users: spans.length, runs: Number(runs), days, milliseconds: Date.now() - started };
}
