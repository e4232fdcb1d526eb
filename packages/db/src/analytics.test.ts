import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AnalyticsRange,
  type Database,
  type FailingStepRow,
  type FlakyRow,
  repositories,
  type SlowTestRow,
  seedHistory,
  testEngines,
} from './index';

// The case figures (slowest tests, failing steps, flaky tests) are read from day summaries for a
// range's whole days and from results for its partial days (0012_analytics_days.sql). This checks them
// against the same figures counted here, in TypeScript, from every result of the range.

const DAY = 86_400_000;

interface ResultRow {
  project_id: string | null;
  suite_id: string | null;
  suite_version: number | null;
  url: string;
  test_suite_name: string | null;
  at: string;
  run_id: string;
  name: string;
  status: 'passed' | 'flaky' | 'failed';
  execution_time: number | null;
  step: string | null;
  last_at: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = 0.5 * (sorted.length - 1);
  const low = Math.floor(position);
  return sorted[low] + (sorted[Math.ceil(position)] - sorted[low]) * (position - low);
}

/** The figures from every result: what the day summaries must reproduce. */
function expected(results: ResultRow[]) {
  const ordered = [...results].sort((a, b) =>
    a.at === b.at ? (a.run_id < b.run_id ? -1 : 1) : a.at < b.at ? -1 : 1,
  );
  const caseOf = (r: ResultRow) =>
    JSON.stringify([
      r.project_id,
      r.suite_id,
      r.suite_id ? null : r.url,
      r.suite_id ? null : (r.test_suite_name ?? ''),
      r.name,
    ]);
  const groups = (key: (r: ResultRow) => string) => {
    const map = new Map<string, ResultRow[]>();
    for (const r of ordered) map.set(key(r), [...(map.get(key(r)) ?? []), r]);
    return [...map.values()];
  };
  const slowest = groups(caseOf)
    .map((rs) => {
      const times = rs.filter((r) => r.status !== 'failed' && r.execution_time !== null);
      return {
        name: rs[0].name,
        runs: times.length,
        median_seconds: times.length ? median(times.map((r) => r.execution_time as number)) : 0,
        max_seconds: Math.max(...times.map((r) => r.execution_time as number)),
      };
    })
    .filter((c) => c.runs > 0);
  const flaky = groups((r) => caseOf(r) + (r.suite_id ? r.suite_version : null))
    .map((rs) => {
      let flips = 0;
      const ids: string[] = [];
      rs.forEach((r, i) => {
        const flipped = i > 0 && (rs[i - 1].status !== 'failed') !== (r.status !== 'failed');
        if (flipped) flips++;
        if (flipped || r.status === 'flaky') ids.push(r.run_id);
      });
      return {
        name: rs[0].name,
        suite_id: rs[0].suite_id,
        suite_version: rs[0].suite_id ? rs[0].suite_version : null,
        runs: rs.length,
        flips,
        retried_passes: rs.filter((r) => r.status === 'flaky').length,
        run_ids: ids.reverse().slice(0, 10),
      };
    })
    .filter((c) => c.flips > 0 || c.retried_passes > 0);
  const failing = groups((r) => r.step ?? '')
    .filter((rs) => rs[0].step !== null)
    .map((rs) => ({
      step: rs[0].step,
      failures: rs.length,
      cases: new Set(rs.map((r) => r.name)).size,
      last_run_id: rs[rs.length - 1].run_id,
    }));
  return { slowest, flaky, failing };
}

/** Both answers in one order, with the fields both have; medians to 9 places (float sums differ). */
function comparable(figures: {
  slowest: Omit<SlowTestRow, 'suite'>[];
  flaky: Omit<FlakyRow, 'suite'>[];
  failing: Omit<FailingStepRow, 'last_seen'>[];
}) {
  const sorted = <T>(xs: T[], key: (x: T) => unknown[]) =>
    xs.sort((a, b) => (JSON.stringify(key(a)) < JSON.stringify(key(b)) ? -1 : 1));
  return {
    slowest: sorted(
      figures.slowest.map(({ name, runs, median_seconds, max_seconds }) => ({
        name,
        runs,
        median_seconds: Number(median_seconds.toFixed(9)),
        max_seconds,
      })),
      (x) => [x.name, x.median_seconds, x.runs],
    ),
    flaky: sorted(
      figures.flaky.map(({ name, suite_id, suite_version, runs, flips, retried_passes, run_ids }) => ({
        name,
        suite_id,
        suite_version,
        runs,
        flips,
        retried_passes,
        run_ids,
      })),
      (x) => [x.name, x.suite_id, x.suite_version, x.runs],
    ),
    failing: sorted(
      figures.failing.map(({ step, failures, cases, last_run_id }) => ({
        step,
        failures,
        cases,
        last_run_id,
      })),
      (x) => [x.step],
    ),
  };
}

describe.each(testEngines())('analytics case figures on $name', ({ open }) => {
  let db: Database;
  let drop: () => Promise<void>;
  let repos: ReturnType<typeof repositories>;
  let userId: string;
  let projectId: string;
  const now = new Date();

  const resultsOf = async (range: AnalyticsRange): Promise<ResultRow[]> => {
    const project = range.project_id ? sql`AND r.project_id = ${range.project_id}::uuid` : sql``;
    const found =
      (await db.orm.execute(sql`SELECT r.project_id::text, r.suite_id::text, r.suite_version, r.url,
        r.test_suite_name, to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') AS at,
        r.id::text AS run_id, t.test_case_name AS name, t.status, t.execution_time,
        (SELECT COALESCE(NULLIF(e.value->>'description', ''), e.value->>'action')
          FROM jsonb_array_elements(CASE WHEN t.status = 'failed' AND jsonb_typeof(t.steps) = 'array'
            THEN t.steps ELSE '[]'::jsonb END) WITH ORDINALITY AS e(value, n)
          WHERE e.value->>'status' IN ('error', 'failed') ORDER BY e.n LIMIT 1) AS step
      FROM test_runs r JOIN test_results t ON t.test_run_id = r.id
      WHERE r.user_id = ${userId}::uuid AND r.created_at >= ${range.from.toISOString()}::timestamptz
        AND r.created_at < ${range.to.toISOString()}::timestamptz ${project}
        AND t.status IN ('passed', 'flaky', 'failed')`)) as unknown as { rows: ResultRow[] };
    return found.rows.map((r) => ({
      ...r,
      execution_time: r.execution_time === null ? null : Number(r.execution_time),
      suite_version: r.suite_version === null ? null : Number(r.suite_version),
    }));
  };

  /** Asks twice (the first may make the summaries, the second reads them); both must equal the count. */
  const check = async (range: AnalyticsRange) => {
    const want = comparable(expected(await resultsOf(range)) as never);
    for (let i = 0; i < 2; i++) {
      expect(comparable(await repos.analytics.caseFigures(userId, range, now))).toEqual(want);
    }
    return want;
  };

  /** An ad-hoc run (no saved suite) at `at` with its cases' verdicts. */
  const adhocRun = async (at: Date, verdicts: ('passed' | 'flaky' | 'failed')[], project: string | null) => {
    const runId = randomUUID();
    await db.orm.execute(sql`INSERT INTO test_runs (id, user_id, url, test_suite_name, status, created_at, project_id)
      VALUES (${runId}::uuid, ${userId}::uuid, 'https://adhoc.example/', 'Smoke', 'completed',
        ${at.toISOString()}::timestamptz, ${project}::uuid)`);
    for (const [i, status] of verdicts.entries()) {
      const steps = [
        { action: 'Open the page', status: 'success' },
        { action: `Check part ${i}`, status: status === 'failed' ? 'failed' : 'success' },
      ];
      await db.orm.execute(sql`INSERT INTO test_results (id, test_run_id, user_id, test_case_name, status,
          execution_time, steps, created_at)
        VALUES (${randomUUID()}::uuid, ${runId}::uuid, ${userId}::uuid, ${`Adhoc case ${i}`}, ${status},
          ${i + 0.5}, ${JSON.stringify(steps)}::jsonb, ${at.toISOString()}::timestamptz)`);
    }
    return runId;
  };

  beforeAll(async () => {
    ({ db, drop } = await open());
    repos = repositories(db);
    userId = (await repos.users.create({ username: 'ana', email: 'ana@example.com', password_hash: 'h' })).id;
    const seeded = await seedHistory(db, userId, { runs: 900, days: 12, now });
    projectId = seeded.project_id;
    // Ad-hoc runs that cross midnights, alternating verdicts, in no project and in the seeded one.
    for (let h = 0; h < 12 * 24; h += 7) {
      const verdict = (k: number) => (['passed', 'failed', 'flaky', 'passed'] as const)[(h + k) % 4];
      await adhocRun(new Date(now.getTime() - h * 3_600_000 - 60_000), [verdict(0), verdict(1)], null);
      if (h % 3 === 0)
        await adhocRun(new Date(now.getTime() - h * 3_600_000 - 90_000), [verdict(2)], projectId);
    }
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  const range = (from: Date, to: Date, extra: Partial<AnalyticsRange> = {}): AnalyticsRange => ({
    from,
    to,
    tz: 'UTC',
    top: 1000,
    ...extra,
  });

  it('reads the same figures from day summaries as from every result, for any range', async () => {
    const want = await check(range(new Date(now.getTime() - 30 * DAY), now));
    expect(want.flaky.length).toBeGreaterThan(5);
    expect(want.failing.length).toBeGreaterThan(5);
    expect(want.flaky.some((f) => f.suite_id === null && f.flips > 0)).toBe(true);
    // Days at half past midnight (Asia/Kolkata), one project, within one day, and past today.
    const kolkata = Date.UTC(2000, 0, 1) - 5.5 * 3_600_000;
    const dayStart = (daysAgo: number) =>
      new Date(kolkata + Math.floor((now.getTime() - kolkata) / DAY - daysAgo) * DAY);
    await check(range(dayStart(9), dayStart(2), { tz: 'Asia/Kolkata' }));
    await check(range(new Date(now.getTime() - 8 * DAY), now, { project_id: projectId }));
    await check(range(new Date(now.getTime() - 3.5 * DAY), new Date(now.getTime() - 3.2 * DAY)));
    await check(range(dayStart(5), new Date(now.getTime() + 2 * DAY)));
    const summarised = (await db.orm.execute(
      sql`SELECT count(*)::int AS n FROM analytics_days WHERE user_id = ${userId}::uuid`,
    )) as unknown as { rows: { n: number }[] };
    expect(Number(summarised.rows[0].n)).toBeGreaterThanOrEqual(11);
  }, 60_000);

  it('counts a result added, changed or removed in a summarised day on the next query', async () => {
    const whole = range(new Date(now.getTime() - 30 * DAY), now);
    await check(whole);
    const old = new Date(now.getTime() - 4 * DAY);
    const runId = await adhocRun(old, ['failed', 'failed', 'failed'], null);
    const added = await check(whole);
    expect(added.failing.find((f) => f.step === 'Check part 2')?.last_run_id).toBe(runId);

    await db.orm.execute(sql`UPDATE test_results SET status = 'passed' WHERE test_run_id = ${runId}::uuid`);
    const changed = await check(whole);
    expect(changed.failing.find((f) => f.step === 'Check part 2')?.last_run_id).not.toBe(runId);

    const [older] = (
      (await db.orm.execute(sql`SELECT id::text FROM test_runs WHERE user_id = ${userId}::uuid
        AND created_at < ${new Date(now.getTime() - 6 * DAY).toISOString()}::timestamptz
        ORDER BY created_at DESC LIMIT 1`)) as unknown as { rows: { id: string }[] }
    ).rows;
    await db.orm.execute(sql`DELETE FROM test_runs WHERE id = ${older.id}::uuid`);
    await check(whole);
  }, 60_000);
});
