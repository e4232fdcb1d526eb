/**
 * PostgreSQL unreachable under a worker's run (docs/DEPLOYMENT.md#postgresql): the worker reaches the
 * machine's PostgreSQL through a relay that is cut mid-run (every connection reset, new ones refused)
 * and then restored. Cut for 3 s, the run's writes wait and go through once the server is back: it
 * completes with every case recorded once. Cut for longer than DATABASE_RETRY_MS, the run ends, its
 * end is recorded once the server is back, with what it had recorded, and the worker runs the next
 * run. Needs TEST_DATABASE_URL.
 */
import type { Server } from 'node:http';
import { createScratchDatabase, type Database, openDatabase, startPostgresCut } from '@argus/db';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../compose/worker';
import { loadConfig } from '../config';
import { databaseRetry } from '../database-retry';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';
import { LONG_SUITE, runDetail, runEnd, siteProject, startScaleSite } from '../testing/scale-site';
import { testServerEnv } from '../testing/spawn-server';
import { AUTOMATION_QUEUE } from './redis-keys';

const PG_URL = process.env.TEST_DATABASE_URL;

interface Outage {
  site: { server: Server; url: string };
  relay: Awaited<ReturnType<typeof startPostgresCut>>;
  web: InProcessServer;
  /** What the worker logged. */
  lines: { level: number; msg: string }[];
}

/**
 * A web process on the database and a worker on it through the relay, both on their own Redis
 * database; `workerEnv` is the worker's own (DATABASE_RETRY_MS).
 */
function outageSetUp(redisUrl: string, workerEnv: Record<string, string> = {}): () => Outage {
  let outage: Outage | undefined;
  let scratch: { url: string; drop: () => Promise<void> } | undefined;
  let worker: { running: RunningWorker; db: Database } | undefined;
  let redis: Redis | undefined;

  beforeAll(async () => {
    redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    await redis.flushdb();
    const site = await startScaleSite();
    scratch = await createScratchDatabase(PG_URL as string);
    const relay = await startPostgresCut(scratch.url);
    const env = {
      REDIS_URL: redisUrl,
      DATABASE_URL: scratch.url,
      ALLOWED_TARGETS: '127.0.0.1',
      AUTOMATION_PARALLELISM: '1',
      MAX_BROWSERS: '1',
      STEP_TIMEOUT_MS: '3000',
    };
    const web = await startInProcess(env);
    const config = loadConfig(
      testServerEnv(web.port, web.dataDir, { ...env, ...workerEnv, DATABASE_URL: relay.proxied }),
    );
    const lines: Outage['lines'] = [];
    const log = pino(
      { level: 'info' },
      { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) },
    );
    const db = await openDatabase({ databaseUrl: relay.proxied, retry: databaseRetry(config, () => log) });
    worker = { running: await startWorker(config, db, log), db };
    outage = { site, relay, web, lines };
  }, 120_000);

  afterAll(async () => {
    await worker?.running.stop();
    await worker?.db.close();
    await outage?.web.stop();
    await outage?.relay.close();
    await scratch?.drop();
    await redis?.flushdb();
    redis?.disconnect();
    await new Promise((resolve) => outage?.site.server.close(resolve));
  });

  return () => {
    if (!outage) throw new Error('not set up');
    return outage;
  };
}

/** A user with the long suite saved, and the start of one run of it. */
async function longSuiteRun(web: InProcessServer, siteUrl: string, name: string) {
  const api = client(web);
  const user = await api.signUp(name);
  const { runsPath } = await siteProject(api, user.token, siteUrl, { name: 'Long', test_cases: LONG_SUITE });
  const start = async () => {
    const res = await api.call('POST', runsPath, { token: user.token, json: {} });
    expect(res.status).toBe(202);
    return res.data.test_run_id as string;
  };
  const detail = (runId: string) => runDetail(api, user.token, runId);
  return { token: user.token, start, detail };
}

describe.skipIf(!PG_URL)('a run on a worker while PostgreSQL is unreachable for 3 s', () => {
  const setUp = outageSetUp('redis://127.0.0.1:6379/12');

  it('waits for the database and finishes the run, each case recorded once', async () => {
    const { relay, web, site, lines } = setUp();
    const max = await longSuiteRun(web, site.url, 'max');
    const runId = await max.start();
    await expect
      .poll(async () => (await max.detail(runId)).test_results.length, { timeout: 60_000, interval: 100 })
      .toBeGreaterThanOrEqual(1);
    await relay.cut({ betweenStatements: true });
    const recordedAtCut = (await max.detail(runId)).test_results.length;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // Nothing could be written meanwhile: the worker's connections were all cut.
    expect((await max.detail(runId)).test_results.length).toBe(recordedAtCut);
    await relay.restore();

    await runEnd(web.url, max.token, runId);
    const after = await max.detail(runId);
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

describe.skipIf(!PG_URL)(
  'a run on a worker while PostgreSQL stays unreachable past DATABASE_RETRY_MS',
  () => {
    const setUp = outageSetUp('redis://127.0.0.1:6379/14', { DATABASE_RETRY_MS: '1500' });

    it('ends the run, records its end once PostgreSQL is back, keeps what it recorded, and runs the next', async () => {
      const { relay, web, site, lines } = setUp();
      const ida = await longSuiteRun(web, site.url, 'ida');
      const runId = await ida.start();
      // What a CI client waiting on the run reads (the CLI follows this stream).
      const events = fetch(`${web.url}/api/runs/${runId}/events`, {
        headers: { authorization: `Bearer ${ida.token}` },
      }).then((res) => res.text());
      await expect
        .poll(async () => (await ida.detail(runId)).test_results.length, { timeout: 60_000, interval: 100 })
        .toBeGreaterThanOrEqual(1);
      await relay.cut({ betweenStatements: true });
      const recordedAtCut = (await ida.detail(runId)).test_results.length;
      // The worker's next write gives up after 1.5 s, and so does marking the run failed: the job ends.
      const queue = new Queue(AUTOMATION_QUEUE, { connection: { url: 'redis://127.0.0.1:6379/14' } });
      try {
        await expect.poll(() => queue.getActiveCount(), { timeout: 30_000, interval: 200 }).toBe(0);
      } finally {
        await queue.close();
      }
      // Nothing could record its end meanwhile.
      expect((await ida.detail(runId)).status).toBe('running');
      await relay.restore();
      const messages = lines.map((l) => l.msg);
      expect(messages.some((m) => m.startsWith('PostgreSQL unreachable'))).toBe(true);
      expect(messages).toContain('test run failed');
      // The worker tries the run's end again every 5 s and records it once PostgreSQL answers: no sweep
      // of runs whose job is lost is needed, and the cases recorded before the cut stay, each once.
      await expect
        .poll(async () => (await ida.detail(runId)).status, { timeout: 20_000, interval: 250 })
        .toBe('error');
      expect(lines.map((l) => l.msg)).toEqual(
        expect.arrayContaining([
          'a failed run could not be recorded; trying again',
          'a failed run was recorded on a later try',
        ]),
      );
      const ended = await ida.detail(runId);
      expect(ended.test_results.length).toBe(recordedAtCut);
      const names = ended.test_results.map((r) => r.test_case_name);
      expect(new Set(names).size).toBe(names.length);
      const stream = await events;
      expect(stream).toContain('event: run_finished');
      expect(stream.slice(stream.lastIndexOf('event: run_finished'))).toContain('"status":"error"');

      // The worker is well: with the database back, it runs the next run to the end.
      const next = await ida.start();
      await runEnd(web.url, ida.token, next);
      const done = await ida.detail(next);
      expect(done.status).toBe('completed');
      expect(done.test_results.map((r) => r.test_case_name).sort()).toEqual(
        LONG_SUITE.map((c) => c.test_name).sort(),
      );
    }, 120_000);
  },
);
