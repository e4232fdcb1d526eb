/**
 * Scale-out on this machine (not a test): `npm run bench` runs it; alone,
 * `node --import tsx bench/scale-out.bench.ts`. Needs the machine's PostgreSQL and Redis
 * (BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test, in a scratch database; BENCH_REDIS_URL,
 * else redis://127.0.0.1:6379/10, emptied before and after). docs/DEPLOYMENT.md#what-was-measured-here.
 *
 * Every process is the built one (`npm start`'s server, `npm run worker`'s worker), spawned, against a
 * small site on 127.0.0.1 whose pages take 150 ms. Three set-ups, one after the other, in the same run:
 * - one process (no Redis), MAX_BROWSERS 2, AUTOMATION_PARALLELISM 2: the baseline;
 * - a web process and one worker (the same limits on the worker);
 * - a web process and two workers.
 *
 * For each: **queue overhead**, the median time from `POST …/runs` to the run's end (read every 20 ms)
 * for a one-case suite, run BENCH_SINGLE times (default 15) one after the other, minus the baseline's; and
 * **throughput**, BENCH_USERS users (default 6) each starting a BENCH_CASES-case suite (default 6) at
 * once, in tests per minute from the first start to the last end.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { createScratchDatabase } from '@argus/db';
import { Redis } from 'ioredis';
import { client } from '../apps/server/src/testing/api-targets';
import { type RunningServer, spawnServer, spawnWorker } from '../apps/server/src/testing/spawn-server';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/10';
const SINGLE = Number(process.env.BENCH_SINGLE ?? 15);
const USERS = Number(process.env.BENCH_USERS ?? 6);
const CASES = Number(process.env.BENCH_CASES ?? 6);
const PAGE_MS = 150;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const page = (name: string, n: number) => ({
  test_name: `${name} ${n}`,
  steps: [`Navigate to /page?n=${n}`, 'Verify heading "Ready" is visible'],
});

function startSite(): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><html lang="en"><head><title>Site</title></head><body><h1>Ready</h1></body></html>',
      );
    }, PAGE_MS);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

interface Figures {
  setup: string;
  oneCaseMs: number;
  testsPerMinute: number;
}

async function measure(setup: string, workers: number, site: string): Promise<Figures> {
  const scratch = await createScratchDatabase(PG_URL);
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  await redis.flushdb();
  const limits = { ALLOWED_TARGETS: '127.0.0.1', MAX_BROWSERS: '2', AUTOMATION_PARALLELISM: '2' };
  const env: Record<string, string> = {
    ...limits,
    DATABASE_URL: scratch.url,
    ...(workers > 0 ? { REDIS_URL } : {}),
  };
  let server: RunningServer | undefined;
  const running: { stop: () => Promise<number | null> }[] = [];
  try {
    server = await spawnServer(env);
    for (let i = 0; i < workers; i++) running.push(await spawnWorker(server.port, server.dataDir, env));
    const api = client(server);
    const runSuite = async (token: string, cases: unknown[]) => {
      const project = await api.call('POST', '/api/projects', {
        token,
        json: { name: 'Site', kind: 'web', environments: [{ name: 'staging', base_url: `${site}/` }] },
      });
      const suite = await api.call('POST', `/api/projects/${project.data.id}/suites`, {
        token,
        json: { name: 'Bench', test_cases: cases },
      });
      return async () => {
        const started = await api.call(
          'POST',
          `/api/projects/${project.data.id}/suites/${suite.data.id}/runs`,
          {
            token,
            json: {},
          },
        );
        if (started.status !== 202) throw new Error(`run: ${started.status} ${JSON.stringify(started.data)}`);
        // Read every 20 ms (the event stream reads the run every 500 ms, too coarse to time a short run).
        for (;;) {
          const run = await api.call('GET', `/api/runs/${started.data.test_run_id}`, { token });
          if (!['pending', 'running'].includes(run.data.status)) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        const report = await api.call('GET', `/api/runs/${started.data.test_run_id}/report.json`, { token });
        if (report.data.passed_tests !== cases.length)
          throw new Error(`run did not pass: ${JSON.stringify(report.data)}`);
      };
    };

    const solo = await api.signUp('solo');
    const once = await runSuite(solo.token, [page('One', 0)]);
    await once(); // warm-up: the browser's first launch
    const times: number[] = [];
    for (let i = 0; i < SINGLE; i++) {
      const start = performance.now();
      await once();
      times.push(performance.now() - start);
    }

    const users = await Promise.all(Array.from({ length: USERS }, (_, i) => api.signUp(`user${i}`)));
    const suites = await Promise.all(
      users.map((user, u) =>
        runSuite(
          user.token,
          Array.from({ length: CASES }, (_, n) => page(`User ${u} page`, n)),
        ),
      ),
    );
    const start = performance.now();
    await Promise.all(suites.map((run) => run()));
    const seconds = (performance.now() - start) / 1000;
    return { setup, oneCaseMs: median(times), testsPerMinute: (USERS * CASES * 60) / seconds };
  } finally {
    for (const worker of running) await worker.stop();
    await server?.stop();
    await scratch.drop();
    await redis.flushdb();
    redis.disconnect();
  }
}

const site = await startSite();
try {
  const rows: Figures[] = [];
  for (const [setup, workers] of [
    ['one process (baseline)', 0],
    ['web + 1 worker', 1],
    ['web + 2 workers', 2],
  ] as const) {
    const figures = await measure(setup, workers, site.url);
    rows.push(figures);
    console.log(
      `[scale-out] ${setup}: one-case run ${figures.oneCaseMs.toFixed(0)} ms, ${figures.testsPerMinute.toFixed(1)} tests/min`,
    );
  }
  const base = rows[0];
  console.log(
    `\nScale-out on ${cpus().length} cores (load ${loadavg()[0].toFixed(2)}), ${USERS} users × ${CASES} cases, pages of ${PAGE_MS} ms`,
  );
  console.log('| Set-up | One-case run, median ms | Queue overhead ms | Tests per minute | × baseline |');
  console.log('|---|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(
      `| ${row.setup} | ${row.oneCaseMs.toFixed(0)} | ${(row.oneCaseMs - base.oneCaseMs).toFixed(0)} | ${row.testsPerMinute.toFixed(1)} | ${(row.testsPerMinute / base.testsPerMinute).toFixed(2)} |`,
    );
  }
} finally {
  await new Promise((resolve) => site.server.close(resolve));
}
