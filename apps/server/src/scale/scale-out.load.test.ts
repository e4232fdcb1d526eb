/**
 * 20 users at once through scale-out (CI's `load` project, `npm run test:load`; docs/DEPLOYMENT.md):
 * two web processes (spawned, the built server with REDIS_URL) and two worker processes (the built
 * worker), on the machine's PostgreSQL and Redis. Every user starts a saved suite's run at the same
 * moment, half through each web process; the runs queue, every one finishes with the verdicts its
 * suite must give, and each case is recorded exactly once. Needs TEST_DATABASE_URL (as CI sets it).
 */
import type { Server } from 'node:http';
import { createScratchDatabase } from '@argus/db';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../testing/api-targets';
import { SUITE, siteProject, startScaleSite } from '../testing/scale-site';
import {
  type RunningServer,
  type RunningWorkerProcess,
  spawnServer,
  spawnWorker,
} from '../testing/spawn-server';

const PG_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/11';
const USERS = 20;

describe.skipIf(!PG_URL)('scale-out under load', () => {
  let site: { server: Server; url: string };
  let scratch: { url: string; drop: () => Promise<void> };
  const webs: RunningServer[] = [];
  const workers: RunningWorkerProcess[] = [];
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    await redis.flushdb();
    site = await startScaleSite();
    scratch = await createScratchDatabase(PG_URL as string);
    const env = {
      REDIS_URL,
      DATABASE_URL: scratch.url,
      ALLOWED_TARGETS: '127.0.0.1',
      MAX_BROWSERS: '2',
      AUTOMATION_PARALLELISM: '2',
      STEP_TIMEOUT_MS: '2000',
    };
    const first = await spawnServer(env);
    webs.push(first, await spawnServer({ ...env, DATA_DIR: first.dataDir }));
    for (let i = 0; i < 2; i++) workers.push(await spawnWorker(first.port, first.dataDir, env));
  }, 180_000);

  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    for (const web of [...webs].reverse()) await web.stop();
    await scratch?.drop();
    await redis?.flushdb();
    redis?.disconnect();
    await new Promise((resolve) => site?.server.close(resolve));
  });

  it(`queues ${USERS} users' runs started at once, and every one finishes with its verdicts`, async () => {
    const users = await Promise.all(
      Array.from({ length: USERS }, async (_, i) => {
        const api = client(webs[i % 2]);
        const user = await api.signUp(`load${i}`);
        const { runsPath } = await siteProject(api, user.token, site.url, {
          name: 'Checks',
          test_cases: SUITE,
        });
        return { api, user, path: runsPath };
      }),
    );
    const started = performance.now();
    const runs = await Promise.all(
      users.map(async ({ api, user, path }) => {
        const res = await api.call('POST', path, { token: user.token, json: {} });
        expect(res.status, JSON.stringify(res.data)).toBe(202);
        return { api, user, runId: res.data.test_run_id as string };
      }),
    );
    const reports = await Promise.all(
      runs.map(async ({ api, user, runId }) => {
        await expect
          .poll(
            async () => (await api.call('GET', `/api/runs/${runId}`, { token: user.token })).data.status,
            {
              timeout: 300_000,
              interval: 500,
            },
          )
          .toBe('completed');
        return (await api.call('GET', `/api/runs/${runId}/report.json`, { token: user.token })).data;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `[scale-out load] ${USERS} users × ${SUITE.length} cases on 2 web processes and 2 workers: ${seconds.toFixed(1)} s, ${((USERS * SUITE.length * 60) / seconds).toFixed(1)} tests/min`,
    );
    for (const report of reports) {
      expect(report).toMatchObject({ total_tests: 3, passed_tests: 2, failed_tests: 1 });
      const names = report.results.map((r: { test_name: string }) => r.test_name).sort();
      expect(names).toEqual(SUITE.map((c) => c.test_name).sort());
    }
  }, 400_000);
});
