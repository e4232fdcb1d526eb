import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTargets, client } from '../testing/api-targets';
import { startHealthProbe } from '../testing/health-probe';
import type { InProcessServer } from '../testing/in-process-server';
import { countRuns, ownSweeper, seedYear } from '../testing/seeded-year';
import { RetentionSweeper, type SweepReport } from './retention-sweeper';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Enough for a first sweep of many batches; a year of 60,000 is bench/retention-sweep.bench.ts's. */
const RUNS = 5000;

// The requirement: while a clean-up runs, another user's /api/health keeps answering (within
// 250 ms: measured by bench/retention-sweep.bench.ts over HTTP, figures in docs/PERFORMANCE.md; no
// wall-clock bound here, where a busy machine would make it fail). The sweep deletes small batches with
// a pause between them (docs/HISTORY.md#retention); one large delete (the sweep before it: 500 runs a
// statement, joined to a scan of the table) held the embedded database, and with it the server's
// thread, for longer.
describe.each(apiTargets())('the first retention sweep over a year on $name', ({ start }) => {
  let server: InProcessServer;
  let sweeper: RetentionSweeper;
  let token: string;
  const now = new Date();
  const cutoff = new Date(now.getTime() - 30 * DAY_MS);

  const count = (where: string) => countRuns(server.app.services.db, where);
  const older = `created_at < '${cutoff.toISOString()}' AND coalesce(completed_at, created_at) < '${cutoff.toISOString()}'`;

  beforeAll(async () => {
    server = (await start({ HISTORY_RETENTION_DAYS: '30' })) as InProcessServer;
    const { services } = server.app;
    // The server's own sweeper would start a minute after the server: this test sweeps itself.
    sweeper = await ownSweeper(server, () => now);
    const { user, token: opsToken } = await client(server).signUp('ops');
    token = opsToken;
    await seedYear(services.db, user.id, { runs: RUNS, days: 365 });
    // An old run still being recorded, which no sweep may remove.
    await services.db.exec(
      `UPDATE test_runs SET status = 'running', completed_at = NULL
        WHERE id = (SELECT id FROM test_runs ORDER BY created_at LIMIT 1)`,
    );
    if (services.db.kind === 'pglite') await services.db.exec('ANALYZE');
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('keeps /api/health and a database read answering while it removes exactly the finished runs older than the cutoff', async () => {
    const expected = await count(`${older} AND status NOT IN ('pending', 'running')`);
    expect(expected).toBeGreaterThan(RUNS * 0.8);
    const probe = startHealthProbe(`${server.url}/api/health`, 50);
    // A request that reads the database too (the health check's ping may not wait for it).
    const reader = startHealthProbe(`${server.url}/api/auth/me`, 50, { authorization: `Bearer ${token}` });
    const sweeps: SweepReport[] = [];
    // As the server does: a sweep that spent its budget is followed by another (here at once).
    for (let report = await sweeper.sweep(); report; report = report.complete ? null : await sweeper.sweep())
      sweeps.push(report);
    const health = await probe.stop();
    const reads = await reader.stop();

    expect(health.failures).toBe(0);
    expect(health.times.length).toBeGreaterThan(10);
    expect(reads.failures).toBe(0);
    expect(reads.times.length).toBeGreaterThan(10);
    expect(sweeps.reduce((total, report) => total + report.runsDeleted, 0)).toBe(expected);
    expect(sweeps.reduce((total, report) => total + report.batches, 0)).toBeGreaterThan(expected / 100);
    expect(await count(older)).toBe(1);
    expect(await count(`${older} AND status = 'running'`)).toBe(1);
    // Younger runs are all there.
    expect(await count(`created_at >= '${cutoff.toISOString()}'`)).toBe(RUNS - expected - 1);
    // Their results, deliveries and schedules went with them, or no longer name them.
    const orphans = (await server.app.services.db.orm.execute(
      `SELECT
        (SELECT count(*)::int FROM test_results WHERE test_run_id NOT IN (SELECT id FROM test_runs)) AS results,
        (SELECT count(*)::int FROM webhook_deliveries WHERE test_run_id IS NULL) AS deliveries`,
    )) as unknown as { rows: { results: number; deliveries: number }[] };
    expect(orphans.rows[0]).toEqual({ results: 0, deliveries: expected });
  }, 120_000);

  it('finds nothing to remove on the next sweep, and says it finished', async () => {
    const report = await sweeper.sweep();
    expect(report).toMatchObject({
      runsDeleted: 0,
      comparisonsDeleted: 0,
      conversationsDeleted: 0,
      complete: true,
    });
  });

  it('stops at its time budget, records it, and the next sweep goes on where it stopped', async () => {
    const { services } = server.app;
    // 60 days more: the runs between 30 and 90 days old become due.
    const later = new Date(now.getTime() + 60 * DAY_MS);
    const due = await count(
      `coalesce(completed_at, created_at) < '${new Date(later.getTime() - 30 * DAY_MS).toISOString()}' AND status <> 'running'`,
    );
    const hurried = new RetentionSweeper({
      ...services,
      config: { ...services.config, retentionPace: { batchSize: 50, pauseMs: 100, budgetMs: 100 } },
      log: server.app.log,
      now: () => later,
    });
    const first = (await hurried.sweep()) as SweepReport;
    expect(first.complete).toBe(false);
    expect(first.runsDeleted).toBeGreaterThan(0);
    expect(first.runsDeleted).toBeLessThan(due);
    expect(await services.repos.retention.lastSweep()).toMatchObject({
      complete: false,
      runs_deleted: first.runsDeleted,
    });
    let removed = first.runsDeleted;
    for (let report = first; !report.complete; ) {
      await sleep(10);
      report = (await hurried.sweep()) as SweepReport;
      removed += report.runsDeleted;
    }
    expect(removed).toBe(due);
  }, 120_000);
});
