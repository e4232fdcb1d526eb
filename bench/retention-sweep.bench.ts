/**
 * The retention sweep over a year of history (not a test): `node --import tsx bench/retention-sweep.bench.ts`
 * (docs/PERFORMANCE.md#the-retention-sweep-over-a-year).
 *
 * For each database engine (the embedded PGlite; PostgreSQL at BENCH_DATABASE_URL, else the machine's
 * postgres://postgres@127.0.0.1:5432/test, in a scratch database made and dropped here): the real app
 * (in-process, listening on a port) with HISTORY_RETENTION_DAYS=30 over a generated history of
 * BENCH_RETENTION_RUNS runs (default 60,000) over BENCH_RETENTION_DAYS days (default 365), with a webhook
 * delivery per run and a schedule per suite (apps/server/src/testing/seeded-year.ts). Measured:
 * - the plan of one batch of `retentionRepository.deleteRuns` (EXPLAIN (ANALYZE, BUFFERS), rolled back),
 *   without the indexes of 0013_cascade_indexes.sql and with them;
 * - the first sweep after the year, as the server runs it (sweeps of RETENTION_SWEEP_BUDGET_MS, the next
 *   5 s after one that ran out): its total time, runs removed, batches and the longest, and the worst
 *   answer of /api/health, and of /api/auth/me (a read of the database), each asked every 50 ms over
 *   HTTP from another thread meanwhile;
 * - the statistics refresh that follows it on PGlite (ANALYZE), with the probe;
 * - a second sweep: its time and what it removed (nothing).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createScratchDatabase, type Database, retentionRepository } from '@argus/db';
import { sql } from 'drizzle-orm';
import { startHealthProbe } from '../apps/server/src/testing/health-probe';
import { startInProcess } from '../apps/server/src/testing/in-process-server';
import { countRuns, ownSweeper, seedYear } from '../apps/server/src/testing/seeded-year';

type SweepReport = NonNullable<Awaited<ReturnType<Awaited<ReturnType<typeof ownSweeper>>['sweep']>>>;

const RUNS = Number(process.env.BENCH_RETENTION_RUNS ?? 60_000);
const DAYS = Number(process.env.BENCH_RETENTION_DAYS ?? 365);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgresql').split(',');
const RESUME_MS = 5000;
const CASCADE_INDEXES = ['webhook_deliveries_run_idx', 'schedules_last_run_idx', 'comparisons_file_idx'];

class Rollback extends Error {}

/** EXPLAIN (ANALYZE, BUFFERS) of one batch of 100 runs, rolled back; without the 0013 indexes if asked. */
async function planOfBatch(db: Database, withIndexes: boolean): Promise<string> {
  const cutoff = new Date(Date.now() - 30 * 86_400_000);
  const query = retentionRepository(db.orm).deleteRunsQuery(cutoff, 100);
  let plan = '';
  const explain = async () =>
    db.orm.transaction(async (tx) => {
      if (!withIndexes) for (const index of CASCADE_INDEXES) await tx.execute(sql.raw(`DROP INDEX ${index}`));
      const result = (await tx.execute(
        sql`EXPLAIN (ANALYZE, BUFFERS) `.append(query.getSQL()),
      )) as unknown as {
        rows: Record<string, string>[];
      };
      plan = result.rows.map((row) => Object.values(row)[0]).join('\n');
      throw new Rollback();
    });
  // Twice: the second reads a warm cache, as a sweep's batches after the first do.
  for (let i = 0; i < 2; i++)
    await explain().catch((error) => (error instanceof Rollback ? undefined : Promise.reject(error)));
  return plan;
}

interface EngineFigures {
  engine: string;
  expected: number;
  sweeps: SweepReport[];
  totalMs: number;
  probeWorst: number;
  probeP99: number;
  probeCount: number;
  readWorst: number;
  readP99: number;
  statsMs?: number;
  statsProbeWorst?: number;
  second: SweepReport;
  secondMs: number;
  secondProbeWorst: number;
}

async function benchEngine(engine: 'pglite' | 'postgresql'): Promise<EngineFigures> {
  const scratch = engine === 'postgresql' ? await createScratchDatabase(PG_URL) : undefined;
  const server = await startInProcess({
    DATABASE_URL: scratch?.url ?? '',
    LOG_LEVEL: 'warn',
    HISTORY_RETENTION_DAYS: '30',
  });
  // The server's own timer would sweep (and ANALYZE) a minute after start, in the middle of the seed:
  // this bench runs a sweeper of the same configuration itself, when the year is written.
  const sweeper = await ownSweeper(server);
  const { db } = server.app.services;
  try {
    const register = await server.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { username: 'bench', email: 'bench@example.com', password: 'Bench-password-1' },
    });
    const userId = (register.json().user as { id: string }).id;
    const login = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'bench', password: 'Bench-password-1' },
    });
    const auth = { authorization: `Bearer ${login.json().access_token as string}` };
    const seeded = await seedYear(db, userId, { runs: RUNS, days: DAYS });
    console.log(
      `[${engine}] seeded ${seeded.runs} runs, ${seeded.results} results in ${(seeded.milliseconds / 1000).toFixed(1)} s`,
    );
    await db.exec('ANALYZE');

    for (const withIndexes of [false, true])
      console.log(
        `\n[${engine}] one batch of 100 runs, ${withIndexes ? 'with' : 'without'} the 0013 indexes:\n${await planOfBatch(db, withIndexes)}\n`,
      );

    const count = (where: string) => countRuns(db, where);
    const older = `coalesce(completed_at, created_at) < now() - interval '30 days' AND status NOT IN ('pending', 'running')`;
    const expected = await count(older);

    const probe = startHealthProbe(`${server.url}/api/health`, 50);
    const reader = startHealthProbe(`${server.url}/api/auth/me`, 50, auth);
    const sweeps: SweepReport[] = [];
    const started = performance.now();
    for (;;) {
      const report = await sweeper.sweep();
      if (!report) throw new Error('retention is off');
      sweeps.push(report);
      console.log(
        `[${engine}] sweep ${sweeps.length}: ${report.runsDeleted} runs in ${+report.finishedAt - +report.startedAt} ms, ${report.batches} batches (longest ${report.longestBatchMs} ms), ${report.complete ? 'complete' : 'out of budget'}`,
      );
      if (report.complete) break;
      await sleep(RESUME_MS);
    }
    const totalMs = performance.now() - started;
    const during = await probe.stop();
    const reads = await reader.stop();

    let statsMs: number | undefined;
    let statsProbeWorst: number | undefined;
    if (engine === 'pglite') {
      const statsProbe = startHealthProbe(`${server.url}/api/health`, 50);
      const t = performance.now();
      await db.exec('ANALYZE');
      statsMs = performance.now() - t;
      statsProbeWorst = (await statsProbe.stop()).worst;
    }

    const secondProbe = startHealthProbe(`${server.url}/api/health`, 50);
    const t = performance.now();
    const second = (await sweeper.sweep()) as SweepReport;
    const secondMs = performance.now() - t;
    const secondProbeWorst = (await secondProbe.stop()).worst;
    const left = await count(older);
    if (left !== 0) console.error(`[${engine}] ${left} runs older than the cutoff are left`);
    return {
      engine,
      expected,
      sweeps,
      totalMs,
      probeWorst: during.worst,
      probeP99: during.p99,
      probeCount: during.times.length,
      readWorst: reads.worst,
      readP99: reads.p99,
      statsMs,
      statsProbeWorst,
      second,
      secondMs,
      secondProbeWorst,
    };
  } finally {
    await server.stop();
    await scratch?.drop();
  }
}

const all: EngineFigures[] = [];
for (const engine of ENGINES as ('pglite' | 'postgresql')[]) {
  try {
    all.push(await benchEngine(engine));
  } catch (error) {
    console.error(`[${engine}] failed: ${error instanceof Error ? error.stack : error}`);
  }
}
const ms = (n: number | undefined) => (n === undefined ? '–' : `${Math.round(n).toLocaleString('en')} ms`);
console.log(
  `\nThe retention sweep over ${RUNS.toLocaleString('en')} runs across ${DAYS} days, HISTORY_RETENTION_DAYS=30`,
);
console.log(
  '| Engine | Runs removed (expected) | Sweeps | Total time | Batches, longest | /api/health worst (p99, answers) | /api/auth/me worst (p99) | ANALYZE after, probe worst | Second sweep |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const f of all) {
  const removed = f.sweeps.reduce((n, s) => n + s.runsDeleted, 0);
  const batches = f.sweeps.reduce((n, s) => n + s.batches, 0);
  const longest = Math.max(...f.sweeps.map((s) => s.longestBatchMs));
  console.log(
    `| ${f.engine} | ${removed.toLocaleString('en')} (${f.expected.toLocaleString('en')}) | ${f.sweeps.length} | ${ms(f.totalMs)} | ${batches}, ${longest} ms | ${ms(f.probeWorst)} (${ms(f.probeP99)}, ${f.probeCount}) | ${ms(f.readWorst)} (${ms(f.readP99)}) | ${f.statsMs === undefined ? '–' : `${ms(f.statsMs)}, ${ms(f.statsProbeWorst)}`} | ${f.second.runsDeleted} runs, ${ms(f.secondMs)} (probe worst ${ms(f.secondProbeWorst)}) |`,
  );
}
