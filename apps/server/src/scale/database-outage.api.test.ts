/**
 * PostgreSQL unreachable for a few seconds under a worker's run (docs/DEPLOYMENT.md#postgresql): the
 * worker reaches the machine's PostgreSQL through a relay that is cut for 3 s mid-run (every
 * connection reset, new ones refused) and then restored. The run's writes wait and go through once the
 * server is back: it completes with every case recorded once. Needs TEST_DATABASE_URL.
 */
import type { Server } from 'node:http';
import { createScratchDatabase, type Database, openDatabase, startPostgresCut } from '@argus/db';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { databaseRetry } from '../database-retry';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';
import { LONG_SUITE, runDetail, runEnd, siteProject, startScaleSite } from '../testing/scale-site';
import { testServerEnv } from '../testing/spawn-server';
import { type RunningWorker, startWorker } from './start-worker';

const PG_URL = process.env.TEST_DATABASE_URL;
/** A Redis database of its own, emptied before and after. */
const REDIS_URL = 'redis://127.0.0.1:6379/12';

describe.skipIf(!PG_URL)('a run on a worker while PostgreSQL is unreachable for 3 s', () => {
  let site: { server: Server; url: string };
  let scratch: { url: string; drop: () => Promise<void> };
  let relay: Awaited<ReturnType<typeof startPostgresCut>>;
  let web: InProcessServer;
  let worker: { running: RunningWorker; db: Database } | undefined;
  let redis: Redis;
  const lines: { level: number; msg: string }[] = [];

  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    await redis.flushdb();
    site = await startScaleSite();
    scratch = await createScratchDatabase(PG_URL as string);
    relay = await startPostgresCut(scratch.url);
    const env = {
      REDIS_URL,
      DATABASE_URL: scratch.url,
      ALLOWED_TARGETS: '127.0.0.1',
      AUTOMATION_PARALLELISM: '1',
      MAX_BROWSERS: '1',
      STEP_TIMEOUT_MS: '1000',
    };
    web = await startInProcess(env);
    const config = loadConfig(testServerEnv(web.port, web.dataDir, { ...env, DATABASE_URL: relay.proxied }));
    const log = pino(
      { level: 'info' },
      { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) },
    );
    const db = await openDatabase({ databaseUrl: relay.proxied, retry: databaseRetry(config, () => log) });
    worker = { running: await startWorker(config, db, log), db };
  }, 120_000);

  afterAll(async () => {
    await worker?.running.stop();
    await worker?.db.close();
    await web?.stop();
    await relay?.close();
    await scratch?.drop();
    await redis?.flushdb();
    redis?.disconnect();
    await new Promise((resolve) => site?.server.close(resolve));
  });

  it('waits for the database and finishes the run, each case recorded once', async () => {
    const api = client(web);
    const max = await api.signUp('max');
    const { runsPath } = await siteProject(api, max.token, site.url, {
      name: 'Long',
      test_cases: LONG_SUITE,
    });
    const res = await api.call('POST', runsPath, { token: max.token, json: {} });
    expect(res.status).toBe(202);
    const runId = res.data.test_run_id as string;
    const detail = () => runDetail(api, max.token, runId);
    await expect
      .poll(async () => (await detail()).test_results.length, { timeout: 60_000, interval: 100 })
      .toBeGreaterThanOrEqual(1);
    await relay.cut();
    const recordedAtCut = (await detail()).test_results.length;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // Nothing could be written meanwhile: the worker's connections were all cut.
    expect((await detail()).test_results.length).toBe(recordedAtCut);
    await relay.restore();

    await runEnd(web.url, max.token, runId);
    const after = await detail();
    expect(after.status).toBe('completed');
    expect(after.test_results.map((r) => r.test_case_name).sort()).toEqual(
      LONG_SUITE.map((c) => c.test_name).sort(),
    );
    expect(after.test_results.every((r) => r.status === 'passed')).toBe(true);
    const messages = lines.map((l) => l.msg);
    expect(messages.some((m) => m.startsWith('PostgreSQL unreachable'))).toBe(true);
    expect(messages).toContain('PostgreSQL reachable again');
  }, 120_000);
});
