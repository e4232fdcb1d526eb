/**
 * The organization check at 1,000 organizations × 20 members (not a test): `npm run bench:orgs`, or
 * `node --import tsx bench/organizations.bench.ts`. Figures:
 * docs/PERFORMANCE.md#organizations-the-permission-check-at-1000--20 (issue 37).
 *
 * For each engine (BENCH_ORG_ENGINES, default `pglite,postgresql`): a fresh database (PGlite: a copy of
 * the migrated template; PostgreSQL: a scratch database on BENCH_DATABASE_URL, else TEST_DATABASE_URL,
 * else postgres://postgres@127.0.0.1:5432/test, dropped at the end) seeded in bulk SQL while no server
 * holds it: BENCH_ORGS organizations (default 1,000) × BENCH_ORG_MEMBERS members (default 20) of the five
 * roles, each member a user of their own with their personal organization, then ANALYZE.
 *
 * Then the server (bench/organizations-server.ts over apps/server/src/testing/org-lookup-server.ts: the
 * whole app, `buildApp`, in a process of its own)
 * answers `GET /api/projects` over HTTP, each request signed in as a random member of a random
 * organization with `X-Argus-Organization` naming it, from BENCH_CLIENTS clients (default 20). Each
 * request is, at random and half the time each, made WITH the membership lookup (production's
 * `OrgAccess.forLogin`) or WITHOUT it (the bench's server answers `forLogin` from a map read at start,
 * when the bench's `X-Bench-Lookup` header asks): the same request, in one stream, under one load.
 * After a warm-up of BENCH_WARM_UP requests (default 600, not counted), two shapes of load:
 * - paced: BENCH_REQUESTS requests (default 1,800) offered at BENCH_RATE req/s in all (default 60), each
 *   client starting its next an exponentially drawn while after its last, as people at screens do;
 * - saturated: BENCH_SATURATED_REQUESTS (default 1,500), each client's next as soon as the last is
 *   answered (the server at its capacity).
 * Reported: p50/p95/p99 of each way, their differences with a 90 % bootstrap interval, and the
 * lookup's own time inside the server. Then the CPU each way costs per request, which a shared
 * machine's load moves far less than wall time: four blocks of BENCH_CPU_REQUESTS (default 500) at
 * capacity, all with the lookup or all without (with, without, without, with), the server process's
 * CPU (every thread, PGlite's included) and PostgreSQL's backends' read from /proc around each. Last,
 * `checkRole`'s own time (timed in the server's process: it runs either way), the lookup's plan (EXPLAIN ANALYZE), and
 * what one statement costs when made alone (`SELECT 1`, the lookup, the user's lookup; timed on the
 * seeded database before the server starts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, openDatabase, seedPgliteDir } from '@argus/db';
import { SignJWT } from 'jose';
import { BenchServer, LOOKUP_HEADER, type Lookup } from './organizations-ipc';
import {
  explainLookup,
  orgName,
  seedOrganizations,
  timeStatements,
  userName,
  uuidOf,
} from './organizations-seed';
import { backendPids, cpuSeconds } from './process-cpu';

const ORGS = Number(process.env.BENCH_ORGS ?? 1_000);
const MEMBERS = Number(process.env.BENCH_ORG_MEMBERS ?? 20);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1_800);
/** The paced shape's offered rate, req/s from all clients together. */
const RATE = Number(process.env.BENCH_RATE ?? 60);
const SATURATED_REQUESTS = Number(process.env.BENCH_SATURATED_REQUESTS ?? 1_500);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 600);
/** Requests per block of the CPU comparison (four blocks, each all one way). */
const CPU_REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 500);
const PG_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const ENGINES = (process.env.BENCH_ORG_ENGINES ?? 'pglite,postgresql').split(',') as Engine[];
const PATH = '/api/projects';
const JWT_SECRET = randomBytes(32).toString('base64url');

type Engine = 'pglite' | 'postgresql';

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
/** A fresh, migrated and seeded database no server holds yet; its server's environment. */
async function prepare(engine: Engine) {
  const scratch =
    engine === 'postgresql' ? await createScratchDatabase(PG_URL, { migrated: false }) : undefined;
  const dataDir = await mkdtemp(join(tmpdir(), 'argus-orgs-bench-'));
  if (!scratch) await seedPgliteDir(join(dataDir, 'db'));
  const db = await openDatabase({ databaseUrl: scratch?.url, pgliteDir: join(dataDir, 'db') });
  let plan: string;
  let statements: Record<string, number>;
  try {
    const started = performance.now();
    await seedOrganizations(db, ORGS, MEMBERS);
    const seeded = performance.now() - started;
    const member = 1 + Math.floor(Math.random() * MEMBERS * ORGS);
    plan = await explainLookup(db, uuidOf(orgName(Math.ceil(member / MEMBERS))), uuidOf(userName(member)));
    const pairs = Array.from({ length: 1_000 }, (): [string, string] => {
      const i = 1 + Math.floor(Math.random() * MEMBERS * ORGS);
      return [uuidOf(orgName(Math.ceil(i / MEMBERS))), uuidOf(userName(i))];
    });
    statements = await timeStatements(db, pairs);
    console.log(
      `[${engine}] seeded ${ORGS} organizations × ${MEMBERS} members (${MEMBERS * ORGS} users, ${MEMBERS * ORGS * 2} memberships) and ANALYZE in ${(seeded / 1000).toFixed(1)} s`,
    );
  } finally {
    await db.close();
  }
  return {
    plan,
    statements,
    env: { DATABASE_URL: scratch?.url ?? '', JWT_SECRET, HISTORY_RETENTION_DAYS: '0' },
    dataDir,
    cleanUp: async () => {
      await rm(dataDir, { recursive: true, force: true });
      await scratch?.drop();
    },
  };
}

interface Member {
  orgId: string;
  token: string;
}

/** A signed-in token for each member, as the server would issue it (the bench holds JWT_SECRET). */
async function members(): Promise<Member[]> {
  const secret = new TextEncoder().encode(JWT_SECRET);
  const all: Member[] = [];
  for (let i = 1; i <= MEMBERS * ORGS; i++) {
    const token = await new SignJWT({ username: userName(i) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(uuidOf(userName(i)))
      .setIssuer('argus')
      .setIssuedAt()
      .setExpirationTime('2h')
      .sign(secret);
    all.push({ orgId: uuidOf(orgName(Math.ceil(i / MEMBERS))), token });
  }
  return all;
}

/**
 * `count` requests from CLIENTS clients, each a random member of their organization, each at random
 * with the lookup or skipping it (or all `only` one way); each one's time, by which. `rate` (req/s, all clients together):
 * each client starts its next request an exponentially drawn while after its last one started (or
 * when it is answered, if later); undefined: as soon as the last is answered.
 */
async function load(url: string, everyone: Member[], count: number, rate?: number, only?: Lookup) {
  const times: Record<Lookup, number[]> = { production: [], skipped: [] };
  const mean = rate ? (CLIENTS / rate) * 1000 : 0;
  let sent = 0;
  const started = performance.now();
  const client = async () => {
    let next = performance.now() + Math.random() * mean;
    while (sent < count) {
      sent++;
      await sleep(next - performance.now());
      const member = everyone[Math.floor(Math.random() * everyone.length)];
      const lookup: Lookup = only ?? (Math.random() < 0.5 ? 'production' : 'skipped');
      const start = performance.now();
      const res = await fetch(`${url}${PATH}`, {
        headers: {
          authorization: `Bearer ${member.token}`,
          'x-argus-organization': member.orgId,
          [LOOKUP_HEADER]: lookup,
        },
      });
      const body = await res.text();
      times[lookup].push(performance.now() - start);
      if (res.status !== 200) throw new Error(`GET ${PATH}: HTTP ${res.status} ${body.slice(0, 200)}`);
      next = start - Math.log(1 - Math.random()) * mean;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return { times, perSecond: (count / (performance.now() - started)) * 1000 };
}

type Shape = 'paced' | 'saturated';

/** One shape of load on one engine. */
interface ShapeResult {
  times: Record<Lookup, number[]>;
  /** `forLogin`'s own time inside the server, in the requests that made the lookup. */
  lookups: number[];
  perSecond: number;
}

/** CPU milliseconds per request, each way: the server process (every thread), the database's backends. */
type CpuResult = Record<Lookup, { server: number; database?: number }>;

interface EngineResult {
  shapes: Partial<Record<Shape, ShapeResult>>;
  cpu?: CpuResult;
  plan: string;
  /** checkRole's own time in the server's process, ns a call. */
  checkRoleNs: number;
  /** Mean ms of one statement made alone (organizations-seed.ts `timeStatements`). */
  statements: Record<string, number>;
}

async function benchEngine(engine: Engine, everyone: Member[]): Promise<EngineResult> {
  const { env, dataDir, plan, statements, cleanUp } = await prepare(engine);
  let server: BenchServer | undefined;
  try {
    const running = await BenchServer.start(dataDir, env);
    server = running;
    const result: EngineResult = { shapes: {}, plan, statements, checkRoleNs: running.checkRoleNs };
    const measure = async (count: number, rate?: number, only?: Lookup) => {
      const { times, perSecond } = await load(running.url, everyone, count, rate, only);
      const counted = await running.ask({ type: 'times' }, 'times');
      // Each request went the way it asked, or the comparison means nothing.
      if (
        counted.misses ||
        counted.skipped !== times.skipped.length ||
        counted.lookups.length !== times.production.length
      )
        throw new Error(
          `the server skipped ${counted.skipped} lookups (${counted.misses} not in its map) and made ${counted.lookups.length}; asked ${times.skipped.length} and ${times.production.length}`,
        );
      return { times, lookups: counted.lookups, perSecond };
    };
    const show = (shape: Shape, r: ShapeResult) => {
      const q = (xs: number[]) =>
        `p50 ${ms(quantile(xs, 0.5))} p95 ${ms(quantile(xs, 0.95))} p99 ${ms(quantile(xs, 0.99))}`;
      console.log(
        `  ${shape}, ${r.perSecond.toFixed(0)} req/s: with the lookup ${q(r.times.production)}; skipped ${q(r.times.skipped)}; the lookup itself ${q(r.lookups)} (ms)`,
      );
    };
    // The JIT, the caches and the connections warm.
    await measure(WARM_UP);
    result.shapes.paced = await measure(REQUESTS, RATE);
    show('paced', result.shapes.paced);
    result.shapes.saturated = await measure(SATURATED_REQUESTS);
    show('saturated', result.shapes.saturated);
    result.cpu = await cpuPerRequest(running, env.DATABASE_URL, (only) =>
      measure(CPU_REQUESTS, undefined, only),
    );
    const cpu = (way: Lookup) =>
      `${ms(result.cpu?.[way].server ?? 0)}${result.cpu?.[way].database === undefined ? '' : ` + ${ms(result.cpu[way].database)}`}`;
    console.log(
      `  CPU per request (server${env.DATABASE_URL ? ' + database backends' : ''}): with the lookup ${cpu('production')}, skipped ${cpu('skipped')} ms`,
    );
    return result;
  } finally {
    await server?.stop();
    await cleanUp();
  }
}

/**
 * CPU per request each way, at capacity: CPU_REQUESTS requests all with the lookup, then all skipping
 * it, twice (with, without, without, with), reading the server's (and PostgreSQL's backends') CPU time
 * around each block. Undefined figures for the database when its backends are not on this machine or
 * changed during a block.
 */
async function cpuPerRequest(
  server: BenchServer,
  databaseUrl: string,
  block: (only: Lookup) => Promise<unknown>,
): Promise<CpuResult> {
  const spent = { production: { server: 0, database: 0 }, skipped: { server: 0, database: 0 } };
  let databaseKnown = Boolean(databaseUrl);
  for (const way of ['production', 'skipped', 'skipped', 'production'] as const) {
    const backends = databaseUrl ? await backendPids(databaseUrl) : [];
    const read = async () => ({
      server: (await cpuSeconds(server.pid)) ?? Number.NaN,
      database: (await Promise.all(backends.map(cpuSeconds))).reduce<number>(
        (sum, s) => sum + (s ?? Number.NaN),
        0,
      ),
    });
    const before = await read();
    await block(way);
    const after = await read();
    if (databaseUrl && (backends.length === 0 || (await backendPids(databaseUrl)).join() !== backends.join()))
      databaseKnown = false;
    spent[way].server += after.server - before.server;
    spent[way].database += after.database - before.database;
  }
  const per = (seconds: number) => (seconds * 1000) / (2 * CPU_REQUESTS);
  const of = (way: Lookup) => ({
    server: per(spent[way].server),
    ...(databaseKnown && Number.isFinite(spent[way].database) && { database: per(spent[way].database) }),
  });
  return { production: of('production'), skipped: of('skipped') };
}

/** A 90 % interval of quantile(a, q) − quantile(b, q), from 500 resamples of each. */
function bootstrap(a: number[], b: number[], q: number): [number, number] {
  const resample = (xs: number[]) => Array.from(xs, () => xs[Math.floor(Math.random() * xs.length)]);
  const diffs = Array.from({ length: 500 }, () => quantile(resample(a), q) - quantile(resample(b), q));
  return [quantile(diffs, 0.05), quantile(diffs, 0.95)];
}

const loadBefore = loadavg()[0];
const everyone = await members();
const results = new Map<Engine, EngineResult>();
for (const engine of ENGINES) {
  console.log(`[${engine}]`);
  try {
    results.set(engine, await benchEngine(engine, everyone));
  } catch (error) {
    console.error(`[${engine}] failed: ${error instanceof Error ? error.stack : error}`);
    process.exitCode = 1;
  }
}

const QS = [0.5, 0.95, 0.99] as const;

function table(shape: Shape, title: string) {
  const row = (label: string, cell: (r: ShapeResult, q: number) => string) =>
    `| ${label} | ${ENGINES.flatMap((engine) => {
      const r = results.get(engine)?.shapes[shape];
      return QS.map((q) => (r ? cell(r, q) : '–'));
    }).join(' | ')} |`;
  console.log(
    `\n${title}; ${ENGINES.map((e) => `${e} ${results.get(e)?.shapes[shape]?.perSecond.toFixed(0) ?? '–'} req/s`).join(', ')}`,
  );
  console.log(`| ms | ${ENGINES.map((e) => `${e} p50 | p95 | p99`).join(' | ')} |`);
  console.log(`|---|${ENGINES.map(() => '---:|---:|---:').join('|')}|`);
  console.log(row('with the lookup (production)', (r, q) => ms(quantile(r.times.production, q))));
  console.log(row('the same request, lookup skipped', (r, q) => ms(quantile(r.times.skipped, q))));
  console.log(
    row('**added by the check** (90 % interval)', (r, q) => {
      const [low, high] = bootstrap(r.times.production, r.times.skipped, q);
      return `**${ms(quantile(r.times.production, q) - quantile(r.times.skipped, q))}** (${ms(low)} … ${ms(high)})`;
    }),
  );
  console.log(row('the lookup itself, timed in the server', (r, q) => ms(quantile(r.lookups, q))));
}

console.log(
  `\nThe organization check at ${ORGS} × ${MEMBERS}: GET ${PATH} over HTTP from ${CLIENTS} clients, with the lookup or without at random; ` +
    `${cpus().length} cores, load ${loadBefore.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after`,
);
table('paced', `Paced: ${REQUESTS} requests offered at ${RATE} req/s`);
table(
  'saturated',
  `Saturated: ${SATURATED_REQUESTS} requests, each client's next as soon as the last is answered`,
);
console.log('\nCPU per request at capacity, ms (server process, every thread; PostgreSQL: + its backends):');
console.log('| | with the lookup | skipped | **added** |');
console.log('|---|---:|---:|---:|');
for (const [engine, r] of results) {
  if (!r.cpu) continue;
  const { production: w, skipped: wo } = r.cpu;
  const total = (x: { server: number; database?: number }) => x.server + (x.database ?? 0);
  const cell = (x: { server: number; database?: number }) =>
    x.database === undefined ? ms(x.server) : `${ms(total(x))} (${ms(x.server)} + ${ms(x.database)})`;
  console.log(`| ${engine} | ${cell(w)} | ${cell(wo)} | **${ms(total(w) - total(wo))}** |`);
}
console.log(
  `\ncheckRole (runs either way; timed in the server's process at start): ${[...results]
    .map(([engine, r]) => `${engine} ${r.checkRoleNs.toFixed(0)} ns a call`)
    .join(', ')}`,
);
console.log(
  "\nOne statement made alone, one caller, 1,000 times (mean ms, in a request's statement limits):",
);
for (const [engine, r] of results)
  console.log(
    `  ${engine}: ${Object.entries(r.statements)
      .map(([name, mean]) => `${name} ${ms(mean)}`)
      .join(', ')}`,
  );
for (const [engine, r] of results) console.log(`\nThe lookup's plan on ${engine}:\n${r.plan}`);
