/**
 * History and analytics at scale (not a test): `npm run bench` runs it; alone,
 * `node --import tsx bench/history.bench.ts`.
 *
 * For each database engine (the embedded PGlite always; PostgreSQL at BENCH_DATABASE_URL, else the
 * machine's postgres://postgres@127.0.0.1:5432/test, in a scratch database made and dropped here):
 * the real app (in-process, as the API tests start it) over a database holding a generated history of BENCH_HISTORY_RUNS runs
 * (default 20,000; packages/db/src/history-seed.ts), and each query timed through `app.inject()` (the
 * server's time: routing, authentication, SQL, validation, serialisation; no socket). Each request is
 * made BENCH_REPEAT times (default 25) after two warm-up calls; the median and p95 are reported, and
 * their ratio to the floor measured in the same run: an authenticated request that reads one row
 * (`GET /api/auth/me`). The old offset-paged run list (`GET /api/automation/test-runs`) at the same
 * depth is measured for contrast with keyset paging (docs/PERFORMANCE.md#history-and-analytics).
 */
import { cpus, loadavg } from 'node:os';
import { createScratchDatabase, type Database, seedHistory } from '@argus/db';
import { startInProcess } from '../apps/server/src/testing/in-process-server';

const RUNS = Number(process.env.BENCH_HISTORY_RUNS ?? 20_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 25);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

interface Row {
  engine: string;
  request: string;
  median: number;
  p95: number;
  ratio: number;
  aim?: number;
}

async function benchEngine(engine: 'pglite' | 'postgresql'): Promise<Row[]> {
  const scratch = engine === 'postgresql' ? await createScratchDatabase(PG_URL) : undefined;
  const server = await startInProcess({ DATABASE_URL: scratch?.url ?? '', LOG_LEVEL: 'warn' });
  const { app } = server;
  // The seed writes through the server's own database handle: PGlite is open in one process only.
  const db: Database = app.services.db;
  const rows: Row[] = [];
  try {
    const register = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { username: 'bench', email: 'bench@example.com', password: 'Bench-password-1' },
    });
    if (register.statusCode !== 201) throw new Error(`register: ${register.statusCode} ${register.body}`);
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'bench', password: 'Bench-password-1' },
    });
    const token = login.json().access_token as string;
    const userId = (register.json().user as { id: string }).id;
    const seeded = await seedHistory(db, userId, { runs: RUNS });
    console.log(
      `[${engine}] seeded ${seeded.runs} runs, ${seeded.results} results in ${(seeded.milliseconds / 1000).toFixed(1)} s`,
    );
    // As the server's hourly maintenance leaves the embedded database (PostgreSQL's autovacuum does its own).
    await db.exec('ANALYZE');

    const get = async (url: string) => {
      const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return res;
    };
    const time = async (url: string) => {
      await get(url);
      await get(url);
      const times: number[] = [];
      for (let i = 0; i < REPEAT; i++) {
        const start = performance.now();
        await get(url);
        times.push(performance.now() - start);
      }
      return { median: quantile(times, 0.5), p95: quantile(times, 0.95) };
    };

    const floor = await time('/api/auth/me');
    const add = (request: string, t: { median: number; p95: number }, aim?: number) => {
      rows.push({ engine, request, ...t, ratio: t.median / floor.median, aim });
      console.log(`[${engine}] ${request}: median ${t.median.toFixed(1)} ms, p95 ${t.p95.toFixed(1)} ms`);
    };
    add('GET /api/auth/me (floor)', floor);

    const first = await get('/api/history?limit=50');
    const page = first.json() as { items: { id: string; kind: string }[]; next_cursor: string | null };
    add('history: first page (50)', await time('/api/history?limit=50'), 100);
    const suiteId = seeded.suite_ids[0];
    add(
      'history: filtered (suite + failed)',
      await time(`/api/history?limit=50&suite_id=${suiteId}&status=failed`),
      100,
    );
    add('history: text search', await time('/api/history?limit=50&q=checkout'), 100);
    // A page deep in the list: follow the cursor 40 pages (2,000 items) down.
    let cursor = page.next_cursor;
    for (let i = 0; i < 40 && cursor; i++) {
      const next = (await get(`/api/history?limit=50&cursor=${encodeURIComponent(cursor)}`)).json() as {
        next_cursor: string | null;
      };
      cursor = next.next_cursor;
    }
    if (cursor)
      add(
        'history: page 41 (keyset)',
        await time(`/api/history?limit=50&cursor=${encodeURIComponent(cursor)}`),
        100,
      );
    add(
      'old run list: offset 2,000 (contrast)',
      await time('/api/automation/test-runs?limit=50&offset=2000'),
    );
    const run = page.items.find((item) => item.kind === 'run');
    if (run) {
      add('run comparison', await time(`/api/history/runs/${run.id}`), 100);
      const detail = (await get(`/api/history/runs/${run.id}`)).json() as { cases: { name: string }[] };
      const name = detail.cases[0]?.name;
      if (name)
        add(
          'case history (strip of 30)',
          await time(`/api/history/cases?run_id=${run.id}&name=${encodeURIComponent(name)}`),
          100,
        );
    }
    // The first analytics request of a seeded history makes the day summaries of its whole days
    // (0012_analytics_days.sql); later ones read them, and any request reads its partial days' results.
    const cold = performance.now();
    await get(`/api/analytics?from=${new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10)}`);
    const coldMs = performance.now() - cold;
    add('analytics: first request, 90 days (makes the day summaries)', { median: coldMs, p95: coldMs });
    add('analytics: last 30 days', await time('/api/analytics'), 300);
    const from = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
    add(
      'analytics: 60 days, one project',
      await time(`/api/analytics?project_id=${seeded.project_id}&from=${from}`),
      300,
    );
  } finally {
    await server.stop();
    await scratch?.drop();
  }
  return rows;
}

const all: Row[] = [];
for (const engine of ['pglite', 'postgresql'] as const) {
  try {
    all.push(...(await benchEngine(engine)));
  } catch (error) {
    console.error(`[${engine}] skipped: ${error instanceof Error ? error.message : error}`);
  }
}
console.log(
  `\nHistory and analytics over ${RUNS} runs, ${REPEAT} requests each (${cpus().length} cores, load ${loadavg()[0].toFixed(2)})`,
);
console.log('| Engine | Request | Median ms | p95 ms | × floor | Aim |');
console.log('|---|---|---:|---:|---:|---|');
for (const row of all) {
  const verdict =
    row.aim === undefined ? '' : `< ${row.aim} ms: ${row.p95 < row.aim ? 'met' : 'MISSED'} (p95)`;
  console.log(
    `| ${row.engine} | ${row.request} | ${row.median.toFixed(1)} | ${row.p95.toFixed(1)} | ${row.ratio.toFixed(1)} | ${verdict} |`,
  );
}
