/**
 * A year of history over HTTP (not a test): `npm run bench` runs it after building; alone,
 * `node scripts/build.mjs && node --import tsx bench/history-year.bench.ts`. Figures:
 * docs/PERFORMANCE.md#a-year-of-history-over-http (issue 36).
 *
 * For each engine (BENCH_YEAR_ENGINES, default `pglite,postgresql`): the built server
 * (apps/server/dist/server.js, spawned) over a generated history of BENCH_YEAR_RUNS runs (default
 * 60,000) spread over BENCH_YEAR_DAYS days (default 365) for one user, seeded straight into the
 * database while no server holds it (packages/db/src/history-seed.ts, then ANALYZE unless
 * BENCH_YEAR_ANALYZE=0, and the analytics rollups made as `npm run analytics:rebuild` makes them unless
 * BENCH_YEAR_ROLLUPS=0), retention off.
 * PostgreSQL is a scratch database on BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test),
 * dropped at the end (WITH FORCE, so a statement still running is ended too).
 *
 * Each query of the issue's table is asked once (its first answer, reported apart) and then
 * BENCH_REPEAT times (default 7) one after the other over HTTP; median and p95 (of 7: the slowest).
 * Meanwhile another client asks `GET /api/health` every 250 ms and a signed-in socket on `/ws/{userId}`
 * sends a WebSocket ping every 250 ms (the server's ws library answers it on the event loop); each
 * waits for its answer before the next. "Probe worst" is the slowest answer of either that overlapped
 * the query's timings. Every request gives up after BENCH_TIMEOUT_MS (default 60 s): a query that gets
 * no answer is reported as such and not asked again.
 */
import { rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, openDatabase, repositories, seedHistory, seedPgliteDir } from '@argus/db';
import WebSocket from 'ws';
import { client } from '../apps/server/src/testing/api-targets';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';

const RUNS = Number(process.env.BENCH_YEAR_RUNS ?? 60_000);
const DAYS = Number(process.env.BENCH_YEAR_DAYS ?? 365);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 7);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 60_000);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ENGINES = (process.env.BENCH_YEAR_ENGINES ?? 'pglite,postgresql').split(',') as Engine[];
/** Nothing is asked until this long after the start, so the PGlite server's own ANALYZE (60 s after start) lands in its own row. */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 75_000);
const PROBE_EVERY_MS = 250;
const DAY_MS = 86_400_000;

type Engine = 'pglite' | 'postgresql';
const IDLE = `idle: nothing asked, the first ${SETTLE_MS / 1000} s after start${SETTLE_MS > 60_000 ? " (the PGlite server's own ANALYZE at 60 s)" : ''}`;

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const day = (at: number) => new Date(at).toISOString().slice(0, 10);
/** Milliseconds as the table shows them; '–' for no reading. */
const fmt = (x: number | undefined) =>
  x === undefined ? '–' : x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : x >= 100 ? x.toFixed(0) : x.toFixed(1);

/** One GET with the client's time limit: its time, or why it gave no answer. */
async function timedGet(url: string, token?: string) {
  const start = performance.now();
  try {
    const res = await fetch(url, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await res.text();
    const ms = performance.now() - start;
    if (res.status !== 200) return { ms, text, failure: `HTTP ${res.status} ${text.slice(0, 120)}` };
    return { ms, text, failure: undefined };
  } catch (error) {
    const ms = performance.now() - start;
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    return { ms, text: '', failure: timedOut ? `no answer in ${TIMEOUT_MS / 1000} s` : String(error) };
  }
}

interface Sample {
  kind: 'health' | 'ws';
  sent: number;
  /** Undefined while waiting for the answer. */
  done?: number;
}

/** The other user: /api/health and a WebSocket ping, each every 250 ms, each after the last answer. */
class Probe {
  readonly samples: Sample[] = [];
  private stopped = false;
  private loops: Promise<void>[] = [];

  async start(server: RunningServer, token: string, userId: string) {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws/${userId}`);
    await new Promise<void>((resolve, reject) => {
      ws.once('error', reject);
      ws.once('open', () => ws.send(JSON.stringify({ type: 'auth', data: { token } })));
      ws.on('message', (raw) => {
        if (JSON.parse(raw.toString()).type === 'connection_established') resolve();
      });
    });
    this.loops = [this.loop('health', () => this.health(server.url)), this.loop('ws', () => this.ping(ws))];
    this.loops.push(this.closeWhenStopped(ws));
  }

  private async closeWhenStopped(ws: WebSocket) {
    while (!this.stopped) await sleep(PROBE_EVERY_MS);
    ws.close();
  }

  private async health(url: string) {
    await timedGet(`${url}/api/health`);
  }

  private ping(ws: WebSocket) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, TIMEOUT_MS);
      ws.once('pong', () => {
        clearTimeout(timer);
        resolve();
      });
      ws.ping();
    });
  }

  private async loop(kind: Sample['kind'], ask: () => Promise<void>) {
    while (!this.stopped) {
      const sample: Sample = { kind, sent: performance.now() };
      this.samples.push(sample);
      await ask();
      sample.done = performance.now();
      await sleep(Math.max(0, sample.sent + PROBE_EVERY_MS - performance.now()));
    }
  }

  /** The slowest answer of each kind that overlapped [from, to], once those still open have answered. */
  async worst(from: number, to: number) {
    const overlapping = () => this.samples.filter((s) => s.sent <= to && (s.done ?? Infinity) >= from);
    while (overlapping().some((s) => s.done === undefined)) await sleep(20);
    // Undefined when no probe of that kind fell within (a window shorter than 250 ms).
    const of = (kind: Sample['kind']) => {
      const answers = overlapping().flatMap((s) => (s.kind === kind && s.done ? [s.done - s.sent] : []));
      return answers.length > 0 ? Math.max(...answers) : undefined;
    };
    return { health: of('health'), ws: of('ws') };
  }

  async stop() {
    this.stopped = true;
    await Promise.all(this.loops);
  }
}

interface Timing {
  query: string;
  first?: number;
  median?: number;
  p95?: number;
  failure?: string;
  probe: { health?: number; ws?: number };
}

/** Asks `path` once, then REPEAT times, unless it fails; the probe's worst over all of it. */
async function measure(query: string, url: string, token: string, probe: Probe): Promise<Timing> {
  // A query after one that got no answer starts once the server answers again.
  const settled = performance.now();
  while ((await timedGet(url.replace(/\/api\/.*/, '/api/health'))).failure) {
    if (performance.now() - settled > 5 * 60_000) break;
    await sleep(PROBE_EVERY_MS);
  }
  const from = performance.now();
  const times: number[] = [];
  let failure: string | undefined;
  for (let i = 0; i <= REPEAT && !failure; i++) {
    const answer = await timedGet(url, token);
    failure = answer.failure;
    times.push(answer.ms);
  }
  const worst = await probe.worst(from, performance.now());
  const timing: Timing = { query, first: times[0], probe: worst };
  if (failure) timing.failure = failure;
  else Object.assign(timing, { median: quantile(times.slice(1), 0.5), p95: quantile(times.slice(1), 0.95) });
  console.log(
    `  ${query}: first ${times[0].toFixed(0)} ms, ${failure ? failure : `median ${timing.median?.toFixed(1)} ms, p95 ${timing.p95?.toFixed(1)} ms`}, probe worst health ${fmt(worst.health)}, ws ${fmt(worst.ws)} (ms unless said)`,
  );
  return timing;
}

/** A server with the bench user on a fresh database; the user's id, and the database to seed. */
async function prepare(engine: Engine) {
  // Empty and migrated by the server's first start: the shared migrated template is left alone (a new
  // template drops older ones, which would pull it from under other checkouts' tests).
  const scratch =
    engine === 'postgresql' ? await createScratchDatabase(PG_URL, { migrated: false }) : undefined;
  const dataDir = join(tmpdir(), `argus-history-year-${process.pid}-${Date.now()}`);
  if (!scratch) await seedPgliteDir(join(dataDir, 'db'));
  const env = {
    DATABASE_URL: scratch?.url ?? '',
    DATA_DIR: dataDir,
    HISTORY_RETENTION_DAYS: '0',
  };
  const first = await spawnServer(env);
  let userId: string;
  try {
    userId = (await client(first).signUp('bench')).user.id;
  } finally {
    await first.stop();
  }
  return {
    env,
    userId,
    cleanUp: async () => {
      await rm(dataDir, { recursive: true, force: true });
      await scratch?.drop();
    },
  };
}

/** The year, written while no server holds the database (the embedded one admits one process). */
async function seed(engine: Engine, env: { DATABASE_URL: string; DATA_DIR: string }, userId: string) {
  const db = await openDatabase({
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteDir: join(env.DATA_DIR, 'db'),
  });
  try {
    const report = await seedHistory(db, userId, { runs: RUNS, days: DAYS });
    const analyzed = performance.now();
    // As the server's maintenance leaves the embedded database (PostgreSQL's autovacuum does its own);
    // BENCH_YEAR_ANALYZE=0 leaves the statistics as a fresh seed has them.
    if (process.env.BENCH_YEAR_ANALYZE !== '0') await db.exec('ANALYZE');
    const rolled = performance.now();
    // A team's year has its rollups made as each run finished (docs/HISTORY.md#rollups); a seed writes
    // runs without ending them, so they are made here as `npm run analytics:rebuild` makes them.
    // BENCH_YEAR_ROLLUPS=0 leaves them to the first query.
    if (process.env.BENCH_YEAR_ROLLUPS !== '0') await repositories(db).analytics.rebuild(userId);
    console.log(
      `[${engine}] seeded ${report.runs} runs, ${report.results} results over ${DAYS} days in ${(report.milliseconds / 1000).toFixed(0)} s; ANALYZE ${((rolled - analyzed) / 1000).toFixed(1)} s; rollups ${((performance.now() - rolled) / 1000).toFixed(1)} s`,
    );
    return report;
  } finally {
    await db.close();
  }
}

/** The issue's queries, in its order (the heaviest last, so one that never answers spoils least). */
async function queries(base: string, token: string, suiteId: string) {
  const first = await timedGet(`${base}/api/history?limit=50`, token);
  if (first.failure) throw new Error(`history: ${first.failure}`);
  const page = JSON.parse(first.text) as { items: { id: string; kind: string }[]; next_cursor: string };
  const run = page.items.find((item) => item.kind === 'run');
  if (!run) throw new Error('no run on the first page');
  const compared = await timedGet(`${base}/api/history/runs/${run.id}`, token);
  if (compared.failure) throw new Error(`run comparison: ${compared.failure}`);
  const caseName = (JSON.parse(compared.text) as { cases: { name: string }[] }).cases[0].name;
  const today = Date.now();
  return [
    ['history: first page (50)', '/api/history?limit=50'],
    ['history: filtered (suite + failed)', `/api/history?limit=50&suite_id=${suiteId}&status=failed`],
    ['history: search ("checkout")', '/api/history?limit=50&q=checkout'],
    ['history: next page', `/api/history?limit=50&cursor=${encodeURIComponent(page.next_cursor)}`],
    ['a run compared with the one before', `/api/history/runs/${run.id}`],
    [
      "a case's last 30 results (by run_id, as the run page asks)",
      `/api/history/cases?run_id=${run.id}&name=${encodeURIComponent(caseName)}`,
    ],
    ['analytics: 30 days', `/api/analytics?from=${day(today - 29 * DAY_MS)}&to=${day(today)}&tz=UTC`],
    ['analytics: the whole year', `/api/analytics?from=${day(today - 365 * DAY_MS)}&to=${day(today)}&tz=UTC`],
  ] as const;
}

async function benchEngine(engine: Engine): Promise<Timing[]> {
  const { env, userId, cleanUp } = await prepare(engine);
  let server: RunningServer | undefined;
  const probe = new Probe();
  try {
    const seeded = await seed(engine, env, userId);
    server = await spawnServer(env);
    const started = performance.now();
    const login = await client(server).login('bench');
    const token = login.data.access_token as string;
    await probe.start(server, token, userId);
    const idleFrom = performance.now();
    await sleep(Math.max(2_000, started + SETTLE_MS - idleFrom));
    const idle = await probe.worst(idleFrom, performance.now());
    console.log(
      `[${engine}] server up; probe worst while idle: health ${fmt(idle.health)}, ws ${fmt(idle.ws)} (ms unless said)`,
    );
    const timings: Timing[] = [{ query: IDLE, probe: idle }];
    for (const [query, path] of await queries(server.url, token, seeded.suite_ids[0]))
      timings.push(await measure(query, `${server.url}${path}`, token, probe));
    return timings;
  } finally {
    await probe.stop();
    await server?.stop();
    await cleanUp();
  }
}

const probeCell = (t: Timing) => `${fmt(t.probe.health)} / ${fmt(t.probe.ws)}`;
const cells = (t: Timing | undefined) =>
  !t
    ? ['not run', '', '']
    : t.query === IDLE
      ? ['', '', probeCell(t)]
      : t.failure
        ? [t.failure, '', probeCell(t)]
        : [fmt(t.median ?? 0), fmt(t.p95 ?? 0), probeCell(t)];

const results = new Map<Engine, Timing[]>();
for (const engine of ENGINES) {
  try {
    results.set(engine, await benchEngine(engine));
  } catch (error) {
    console.error(`[${engine}] failed: ${error instanceof Error ? error.stack : error}`);
  }
}
const names = [...new Set([...results.values()].flat().map((t) => t.query))];
const find = (engine: Engine, query: string) => results.get(engine)?.find((t) => t.query === query);
console.log(
  `\nA year of history over HTTP: ${RUNS} runs over ${DAYS} days, median and p95 of ${REPEAT} (ms unless said), ` +
    `probe worst = /api/health / WebSocket ping; ${cpus().length} cores, load ${loadavg()[0].toFixed(2)}`,
);
console.log('| query | PGlite median | p95 | probe worst | PostgreSQL median | p95 | probe worst |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const query of names)
  console.log(
    `| ${query} | ${[...cells(find('pglite', query)), ...cells(find('postgresql', query))].join(' | ')} |`,
  );
console.log('\nFirst answer of each (before the timed ones):');
console.log('| query | PGlite | PostgreSQL |');
console.log('|---|---:|---:|');
for (const query of names) {
  const first = (engine: Engine) => {
    const t = find(engine, query);
    return t?.first === undefined ? '' : fmt(t.first);
  };
  console.log(`| ${query} | ${first('pglite')} | ${first('postgresql')} |`);
}
