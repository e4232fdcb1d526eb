/**
 * A Redis restart (docs/DEPLOYMENT.md#redis): a web app and a worker on a Redis of this test's own
 * (redis-server on a free port, append-only persistence as documented), a run queued, Redis shut down
 * and started again on the same files; the connections come back by themselves and the queued run is
 * taken and finished. Needs TEST_DATABASE_URL (as CI sets it) and redis-server on the machine.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, type Database, openDatabase } from '@argus/db';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../compose/worker';
import { loadConfig } from '../config';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';
import { freePort, testServerEnv } from '../testing/spawn-server';

const PG_URL = process.env.TEST_DATABASE_URL;
const HAS_REDIS_SERVER = spawnSync('redis-server', ['--version']).status === 0;

/** redis-server on `port`, keeping its data in `dir` with append-only persistence; resolves once it answers. */
async function startRedis(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--save',
      '',
    ],
    { stdio: 'ignore' },
  );
  const probe = new Redis(`redis://127.0.0.1:${port}`, {
    lazyConnect: true,
    retryStrategy: () => 100,
    maxRetriesPerRequest: 1,
  });
  probe.on('error', () => undefined);
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      await probe.connect().catch(() => undefined);
      if ((await probe.ping()) === 'PONG') break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('redis-server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  probe.disconnect();
  return child;
}

describe.skipIf(!PG_URL || !HAS_REDIS_SERVER)('scale-out across a Redis restart', () => {
  let site: Server;
  let siteUrl: string;
  let scratch: { url: string; drop: () => Promise<void> };
  let web: InProcessServer;
  let worker: { running: RunningWorker; db: Database };
  let redisDir: string;
  let redisPort: number;
  let redis: ChildProcess;

  beforeAll(async () => {
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><html lang="en"><head><title>Site</title></head><body><h1>Ready</h1></body></html>',
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    redisDir = await mkdtemp(join(tmpdir(), 'argus-redis-'));
    redisPort = await freePort();
    redis = await startRedis(redisPort, redisDir);
    scratch = await createScratchDatabase(PG_URL as string);
    const env = {
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      DATABASE_URL: scratch.url,
      ALLOWED_TARGETS: '127.0.0.1',
      AUTOMATION_PARALLELISM: '1',
      MAX_BROWSERS: '1',
    };
    web = await startInProcess(env);
    const db = await openDatabase({ databaseUrl: scratch.url });
    const config = loadConfig(testServerEnv(web.port, web.dataDir, env));
    worker = { running: await startWorker(config, db, pino({ level: 'silent' })), db };
  }, 120_000);

  afterAll(async () => {
    await worker?.running.stop();
    await worker?.db.close();
    await web?.stop();
    await scratch?.drop();
    redis?.kill('SIGKILL');
    await rm(redisDir, { recursive: true, force: true });
    await new Promise((resolve) => site?.close(resolve));
  });

  it('keeps a queued run through a restart and finishes it once Redis is back', async () => {
    const api = client(web);
    const ola = await api.signUp('ola');
    const project = await api.call('POST', '/api/projects', {
      token: ola.token,
      json: { name: 'Site', kind: 'web', environments: [{ name: 'staging', base_url: `${siteUrl}/` }] },
    });
    const suite = await api.call('POST', `/api/projects/${project.data.id}/suites`, {
      token: ola.token,
      json: {
        name: 'Checks',
        test_cases: [{ test_name: 'Ready', steps: ['Navigate to /', 'Verify heading "Ready" is visible'] }],
      },
    });
    // Queued while the worker takes nothing.
    await worker.running.worker.pause();
    const started = await api.call('POST', `/api/projects/${project.data.id}/suites/${suite.data.id}/runs`, {
      token: ola.token,
      json: {},
    });
    expect(started.status).toBe(202);

    // Redis goes down (its append-only file written) and comes back on the same files.
    const stopped = new Promise((resolve) => redis.once('exit', resolve));
    spawnSync('redis-cli', ['-p', String(redisPort), 'shutdown']);
    await stopped;
    redis = await startRedis(redisPort, redisDir);

    worker.running.worker.resume();
    const runId = started.data.test_run_id as string;
    await expect
      .poll(async () => (await api.call('GET', `/api/runs/${runId}`, { token: ola.token })).data.status, {
        timeout: 60_000,
        interval: 200,
      })
      .toBe('completed');
    const report = (await api.call('GET', `/api/runs/${runId}/report.json`, { token: ola.token })).data;
    expect(report).toMatchObject({ total_tests: 1, passed_tests: 1 });
    expect(worker.running.worker.taken).toBe(1);
  }, 120_000);
});
