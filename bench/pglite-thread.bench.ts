/**
 * The embedded database in a worker thread against PGlite in the caller's thread (not a test):
 * `node --import tsx bench/pglite-thread.bench.ts`.
 *
 * Each way opens PGlite on a new directory (a copy of the migrated template, as the server keeps it
 * under DATA_DIR) and makes through drizzle (as the repositories do), each awaited before the next
 * (the latency a request sees), BENCH_QUERIES small selects by primary key and as many single-row
 * inserts. BENCH_ROUNDS rounds (default 5), the two ways alternating; the median round is reported,
 * per query, and the thread's overhead per query
 * (docs/PERFORMANCE.md#the-embedded-database-in-a-worker-thread). Then what stopping a statement past
 * its deadline costs: from the deadline to the next statement's answer (thread ended, PGlite reopened).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, seedPgliteDir, withStatementScope } from '@argus/db';
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';

const QUERIES = Number(process.env.BENCH_QUERIES ?? 1_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/** Both ways through drizzle, as the repositories call them. */
interface Client {
  execute(query: SQL): Promise<unknown>;
  close(): Promise<void>;
}

/** The server's way: `openDatabase` on a directory, PGlite in its worker thread. */
async function inWorker(dir: string): Promise<Client> {
  const db = await openDatabase({ pgliteDir: dir });
  // Awaited here: a drizzle query runs when awaited, and must start inside the caller's statement scope.
  return { execute: async (query) => await db.orm.execute(query), close: () => db.close() };
}

/** The way before: PGlite in this thread, on a directory, under the same drizzle driver. */
async function inThread(dir: string): Promise<Client> {
  const pglite = await PGlite.create({ fs: new NodeFS(dir) });
  const db = drizzle({ client: pglite });
  return { execute: async (query) => await db.execute(query), close: () => pglite.close() };
}

async function timed(client: Client): Promise<{ select: number; insert: number }> {
  await client.execute(sql`CREATE TABLE items (id serial PRIMARY KEY, name text NOT NULL, at timestamptz)`);
  await client.execute(sql`INSERT INTO items (name) SELECT 'item ' || g FROM generate_series(1, 1000) g`);
  let started = performance.now();
  for (let i = 0; i < QUERIES; i++) {
    await client.execute(sql`SELECT id, name, at FROM items WHERE id = ${(i % 1000) + 1}`);
  }
  const select = (performance.now() - started) / QUERIES;
  started = performance.now();
  for (let i = 0; i < QUERIES; i++) {
    await client.execute(sql`INSERT INTO items (name, at) VALUES (${`new ${i}`}, now())`);
  }
  const insert = (performance.now() - started) / QUERIES;
  return { select, insert };
}

async function round(way: 'in-thread' | 'worker'): Promise<{ select: number; insert: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'argus-pglite-bench-'));
  const db = join(dir, 'db');
  // Both from the migrated template, copied: no initdb in the figures.
  await seedPgliteDir(db);
  const client = way === 'in-thread' ? await inThread(db) : await inWorker(db);
  try {
    return await timed(client);
  } finally {
    await client.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(
  `PGlite in-thread against a worker thread: ${QUERIES} selects and ${QUERIES} inserts each, ${ROUNDS} rounds; ` +
    `${cpus().length} cores, load ${loadavg()[0].toFixed(1)}`,
);
const results: Record<'in-thread' | 'worker', { select: number[]; insert: number[] }> = {
  'in-thread': { select: [], insert: [] },
  worker: { select: [], insert: [] },
};
for (let r = 0; r < ROUNDS; r++) {
  for (const way of ['in-thread', 'worker'] as const) {
    const { select, insert } = await round(way);
    results[way].select.push(select);
    results[way].insert.push(insert);
  }
}
const us = (ms: number) => `${Math.round(ms * 1000)} µs`;
for (const kind of ['select', 'insert'] as const) {
  const inThread = median(results['in-thread'][kind]);
  const worker = median(results.worker[kind]);
  console.log(
    `${kind}: in-thread ${us(inThread)}/query, worker ${us(worker)}/query, ` +
      `overhead ${us(worker - inThread)} (${((worker / inThread - 1) * 100).toFixed(0)} %)`,
  );
}

/** From a statement's deadline to the answer of the one queued behind it, across the restart. */
async function restartCost(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'argus-pglite-bench-'));
  await seedPgliteDir(join(dir, 'db'));
  const client = await inWorker(join(dir, 'db'));
  try {
    const deadline = Date.now() + 200;
    const slow = withStatementScope({ deadline, timeoutMs: 200 }, () =>
      client.execute(sql`SELECT count(*) FROM generate_series(1, 1000000000)`),
    );
    const next = client.execute(sql`SELECT count(*) FROM users`);
    await slow.catch(() => {});
    await next;
    return Date.now() - deadline;
  } finally {
    await client.close();
    await rm(dir, { recursive: true, force: true });
  }
}
const restarts: number[] = [];
for (let r = 0; r < ROUNDS; r++) restarts.push(await restartCost());
console.log(`a statement stopped at its deadline: the next one answered ${restarts.join(', ')} ms after it`);
console.log(`load after: ${loadavg()[0].toFixed(1)}`);
