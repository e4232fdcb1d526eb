import type { Database } from '@argus/db';
import type { FastifyBaseLogger } from 'fastify';
import { loadJwtSecret } from '../auth/auth-service';
import type { Config } from '../config';
import { automationLine } from '../scale/automation-line';
import { AutomationWorker } from '../scale/automation-worker';
import { ComparisonWorker } from '../scale/comparison-worker';
import { ConversationWorker } from '../scale/conversation-worker';
import { PresenceMap } from '../scale/presence';
import { QueueWorker } from '../scale/queue-worker';
import { RedisUserChannel } from '../scale/redis-channel';
import { checkRedis, openRedis } from '../scale/redis-connections';
import { buildCore } from './core';
import { type Lifecycle, runSteps } from './lifecycle';
import { buildLocalWork } from './local-work';

/** A worker process, composed: its three queues' workers and its lifecycle. */
export interface ComposedWorker {
  /** The automation queue's. */
  worker: QueueWorker;
  comparisonWorker: QueueWorker;
  conversationWorker: QueueWorker;
  lifecycle: Lifecycle;
}

export interface RunningWorker extends Omit<ComposedWorker, 'lifecycle'> {
  /** Takes no new job, lets the ones under way finish, then closes the browsers and Redis. */
  stop(): Promise<void>;
}

/**
 * A worker process (docs/DEPLOYMENT.md#how-work-flows): the same local work one process does, over its
 * own browsers, whose messages to users go through Redis, fed by the three queues. It builds no auth,
 * limits, scheduler or retention: it serves no HTTP and holds no socket.
 */
export async function composeWorker(
  config: Config,
  db: Database,
  log: FastifyBaseLogger,
): Promise<ComposedWorker> {
  if (!config.redisUrl) throw new Error('A worker needs REDIS_URL');
  await checkRedis(config.redisUrl);
  const redis = openRedis(config.redisUrl, 'worker', log);
  // Which users have sockets, on any web process: a live browser streams and stays open while watched.
  const presence = new PresenceMap(redis.subscriber);
  // Subscribed at once, while the connection opens (the subscription waits for it to be ready): a
  // SUBSCRIBE that reaches ioredis between connecting and its ready check fails that check.
  await presence.start();
  const channel = new RedisUserChannel({
    messages: redis.commands,
    frames: redis.frames,
    log,
    connectionCount: (userId) => presence.connectionCount(userId),
  });
  const secret = await loadJwtSecret(config.dataDir, config.jwtSecret);
  const core = await buildCore(config, db, log, secret);
  const local = buildLocalWork(config, core, log, channel);
  const jobs = { channel, redis: redis.commands, log };
  // Every queue's worker shares the subscriber and BullMQ connection; each takes as many jobs at once
  // as this process's browsers allow for that work.
  const queueWorker = (work: ConstructorParameters<typeof QueueWorker>[0], concurrency: number) =>
    new QueueWorker(work, {
      subscriber: redis.subscriber,
      connection: redis.queue,
      concurrency: Math.max(1, concurrency),
      lockMs: config.workerLockMs,
      log,
    });
  const worker = queueWorker(
    new AutomationWorker({
      ...jobs,
      automation: local.automation,
      line: automationLine(redis.commands),
      perOrg: config.orgMaxConcurrentRuns,
    }),
    Math.floor(config.maxBrowsers / config.automationParallelism),
  );
  const comparisonWorker = queueWorker(
    new ComparisonWorker({ ...jobs, comparisons: local.comparisons }),
    // A comparison takes up to MAX_BROWSERS_PER_USER browsers (one per viewport).
    Math.floor(config.maxBrowsers / config.maxBrowsersPerUser),
  );
  const conversationWorker = queueWorker(
    new ConversationWorker({ ...jobs, conversations: local.conversations }),
    config.maxLiveBrowsers,
  );
  return {
    worker,
    comparisonWorker,
    conversationWorker,
    lifecycle: {
      start: [() => worker.start(), () => comparisonWorker.start(), () => conversationWorker.start()],
      stop: [
        () => Promise.all([worker.stop(), comparisonWorker.stop(), conversationWorker.stop()]),
        () => presence.stop(),
        () => local.automation.shutdown(),
        () => core.pool.close(),
        () => redis.close(),
      ],
    },
  };
}

/** Composes a worker and starts it (worker.ts, and tests that run workers in their own process). */
export async function startWorker(
  config: Config,
  db: Database,
  log: FastifyBaseLogger,
): Promise<RunningWorker> {
  const { lifecycle, ...composed } = await composeWorker(config, db, log);
  await runSteps(lifecycle.start);
  return { ...composed, stop: () => runSteps(lifecycle.stop) };
}
