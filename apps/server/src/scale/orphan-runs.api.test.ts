/**
 * The sweep of runs whose job is lost (scale/orphan-runs.ts), against the machine's PostgreSQL and
 * Redis: only runs still pending or running, older than the grace, and held by no live job are marked
 * interrupted. Needs TEST_DATABASE_URL.
 */
import {
  createScratchDatabase,
  type Database,
  openDatabase,
  type Repositories,
  repositories,
} from '@argus/db';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrphanRunSweeper } from './orphan-runs';
import { AUTOMATION_QUEUE } from './redis-keys';

const PG_URL = process.env.TEST_DATABASE_URL;
/** A Redis database of its own, emptied before and after. */
const REDIS_URL = 'redis://127.0.0.1:6379/13';

describe.skipIf(!PG_URL)('runs whose job is lost', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let db: Database;
  let repos: Repositories;
  let redis: Redis;
  let queue: Queue;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    await redis.flushdb();
    queue = new Queue(AUTOMATION_QUEUE, { connection: redis });
    scratch = await createScratchDatabase(PG_URL as string);
    db = await openDatabase({ databaseUrl: scratch.url });
    repos = repositories(db);
  });

  afterAll(async () => {
    await queue?.close();
    await redis?.flushdb();
    redis?.disconnect();
    await db?.close();
    await scratch?.drop();
  });

  it('marks interrupted only the old pending or running runs that no live job holds', async () => {
    const user = await repos.users.create({ username: 'uma', email: 'uma@example.com', password_hash: 'x' });
    const run = async (status: string, minutesOld: number) => {
      const row = await repos.testRuns.create(user.id, { url: 'http://127.0.0.1/', status });
      // Both are made here (a number and a uuid the repository generated).
      await db.exec(
        `update test_runs set created_at = now() - interval '${minutesOld} minutes' where id = '${row.id}'`,
      );
      return row.id;
    };
    const queued = await run('pending', 10);
    const lost = await run('running', 10);
    const failedJob = await run('running', 10);
    const young = await run('running', 0);
    const finished = await run('completed', 10);
    const job = (runId: string) => ({
      kind: 'saved',
      user_id: user.id,
      notify: 'none',
      data: { project_id: 'p', suite_id: 's', test_run_id: runId },
    });
    await queue.add('saved', job(failedJob), { jobId: 'job-failing' });
    // The job of `failedJob` fails (as one that killed its worker twice does); `queued`'s stays waiting.
    const worker = new Worker(
      AUTOMATION_QUEUE,
      async () => {
        throw new Error('killed its worker twice');
      },
      { connection: redis.duplicate() },
    );
    await expect
      .poll(async () => (await queue.getJob('job-failing'))?.getState(), { timeout: 10_000 })
      .toBe('failed');
    await worker.close();
    await queue.add('saved', job(queued), { jobId: 'job-waiting' });

    const sweeper = new OrphanRunSweeper({ queue, testRuns: repos.testRuns, log: pino({ level: 'silent' }) });
    const marked = await sweeper.sweep();
    expect(marked.map((r) => r.id).sort()).toEqual([lost, failedJob].sort());
    const status = async (id: string) => (await repos.testRuns.get(user.id, id))?.status;
    expect(await status(lost)).toBe('interrupted');
    expect(await status(failedJob)).toBe('interrupted');
    expect(await status(queued)).toBe('pending');
    expect(await status(young)).toBe('running');
    expect(await status(finished)).toBe('completed');
    // Idempotent: a second sweep, or another web process's, finds nothing more.
    expect(await sweeper.sweep()).toEqual([]);
  });
});
