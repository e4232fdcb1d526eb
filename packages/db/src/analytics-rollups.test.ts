import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsRange, seedHistory, testEngines } from './index';
import { type TwoUsers, twoUserDatabase } from './repository-fixture';

// The rollups kept ahead of the analytics queries (analytics-rollups.ts, 0014_history_rollups.sql): a
// run's end makes its day's case summaries, analytics_runs follows test_runs, and a rebuild makes them
// all again from nothing with the same figures.

const DAY = 86_400_000;

describe.each(testEngines())('analytics rollups on $name', ({ open }) => {
  const fixture = twoUserDatabase(open);
  let t: TwoUsers;
  const now = new Date();
  const today = now.toISOString().slice(0, 10);

  const count = async (query: ReturnType<typeof sql>): Promise<number> => {
    const found = (await t.db.orm.execute(query)) as unknown as { rows: { n: number }[] };
    return Number(found.rows[0].n);
  };
  const summarised = (userId: string, day: string) =>
    count(
      sql`SELECT count(*)::int AS n FROM analytics_days WHERE user_id = ${userId}::uuid AND day = ${day}::date`,
    );
  const caseResults = (userId: string, day: string) =>
    count(sql`SELECT COALESCE(sum(results), 0)::int AS n FROM analytics_case_days
      WHERE user_id = ${userId}::uuid AND day = ${day}::date`);

  /** A run of `userId` at `at`, running, then each case's result written as a run does. */
  const runWithResults = async (userId: string, at: Date, verdicts: string[]) => {
    const runId = randomUUID();
    await t.db.orm.execute(sql`INSERT INTO test_runs (id, user_id, url, test_suite_name, status, created_at)
      VALUES (${runId}::uuid, ${userId}::uuid, 'https://rollup.example/', 'Nightly', 'running', ${at.toISOString()}::timestamptz)`);
    for (const [i, status] of verdicts.entries()) {
      await t.db.orm.execute(sql`INSERT INTO test_results (id, test_run_id, user_id, test_case_name, status,
          execution_time, created_at)
        VALUES (${randomUUID()}::uuid, ${runId}::uuid, ${userId}::uuid, ${`Case ${i}`}, ${status}, 1.5,
          ${at.toISOString()}::timestamptz)`);
    }
    return runId;
  };

  beforeAll(async () => {
    t = await fixture.open();
  });
  afterAll(() => fixture.close());

  it("makes the run's day summaries when the run ends, and a later result of the day forgets them", async () => {
    const runId = await runWithResults(t.alice, now, ['passed', 'failed', 'flaky']);
    expect(await summarised(t.alice, today)).toBe(0);
    expect(await t.repos.analytics.rollUpRun(t.alice, runId)).toBe(true);
    expect(await summarised(t.alice, today)).toBe(1);
    expect(await caseResults(t.alice, today)).toBe(3);

    const second = await runWithResults(t.alice, now, ['passed']);
    expect(await summarised(t.alice, today)).toBe(0);
    await t.repos.analytics.rollUpRun(t.alice, second);
    expect(await caseResults(t.alice, today)).toBe(4);
    // Another user's run is not found under alice, and makes nothing.
    expect(await t.repos.analytics.rollUpRun(t.bob, second)).toBe(false);
    expect(await summarised(t.bob, today)).toBe(0);
  });

  it('keeps a row per finished run in analytics_runs as the run starts, ends, changes and goes', async () => {
    const runId = await runWithResults(t.bob, now, ['passed']);
    const row = () =>
      t.db.orm.execute(
        sql`SELECT status, failed_tests, suite_key FROM analytics_runs WHERE run_id = ${runId}::uuid`,
      ) as unknown as Promise<{
        rows: { status: string; failed_tests: number; suite_key: string }[];
      }>;
    expect((await row()).rows).toEqual([]);
    await t.db.orm.execute(sql`UPDATE test_runs SET status = 'completed', total_tests = 1, failed_tests = 1
      WHERE id = ${runId}::uuid`);
    expect((await row()).rows).toEqual([
      { status: 'completed', failed_tests: 1, suite_key: 'adhoc https://rollup.example/ Nightly' },
    ]);
    await t.db.orm.execute(sql`UPDATE test_runs SET failed_tests = 0 WHERE id = ${runId}::uuid`);
    expect((await row()).rows[0].failed_tests).toBe(0);
    // Resumed: running again, it is not counted until it ends again.
    await t.db.orm.execute(sql`UPDATE test_runs SET status = 'running' WHERE id = ${runId}::uuid`);
    expect((await row()).rows).toEqual([]);
    await t.db.orm.execute(sql`UPDATE test_runs SET status = 'failed' WHERE id = ${runId}::uuid`);
    expect((await row()).rows[0].status).toBe('failed');
    await t.db.orm.execute(sql`DELETE FROM test_runs WHERE id = ${runId}::uuid`);
    expect((await row()).rows).toEqual([]);
  });

  it('rebuilds every rollup from nothing with the same figures', async () => {
    const { id: userId } = await t.repos.users.create({
      username: 'cy',
      email: 'c@example.com',
      password_hash: 'h',
    });
    await seedHistory(t.db, userId, { runs: 300, days: 6, now, comparisons: 0, conversations: 0 });
    const range: AnalyticsRange = {
      from: new Date(now.getTime() - 7 * DAY),
      to: now,
      tz: 'Europe/Paris',
      top: 50,
    };
    const figures = async () => ({
      daily: await t.repos.analytics.daily(userId, range),
      durations: await t.repos.analytics.durations(userId, range),
      cases: await t.repos.analytics.caseFigures(userId, range, now),
    });
    const before = await figures();
    expect(before.daily.reduce((sum, d) => sum + d.runs, 0)).toBe(300);

    // As a history from before the rollups: none of them.
    await t.db.orm.execute(sql`DELETE FROM analytics_days WHERE user_id = ${userId}::uuid`);
    await t.db.orm.execute(sql`DELETE FROM analytics_runs WHERE user_id = ${userId}::uuid`);
    const report = await t.repos.analytics.rebuild(userId);
    expect(report).toMatchObject({ users: 1, runs: 300 });
    // Every UTC day from the first run's to today's, made ahead of any query.
    const days = await count(
      sql`SELECT count(*)::int AS n FROM analytics_days WHERE user_id = ${userId}::uuid`,
    );
    expect(days).toBe(report.days);
    expect(days).toBeGreaterThanOrEqual(6);
    expect(await summarised(userId, today)).toBe(1);
    expect(await figures()).toEqual(before);
    // alice's summaries were left alone.
    expect(await summarised(t.alice, today)).toBe(1);
  }, 120_000);
});
