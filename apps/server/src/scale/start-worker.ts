import type { Database } from '@argus/db';
import type { FastifyBaseLogger } from 'fastify';
import { createServices, type Services } from '../compose/services';
import type { Config } from '../config';
import { AutomationWorker } from './automation-worker';
import { ComparisonWorker } from './comparison-worker';
import { ConversationWorker } from './conversation-worker';
import { PresenceMap } from './presence';
import { RedisUserChannel } from './redis-channel';
import { checkRedis, openRedis } from './redis-connections';

export interface RunningWorker {
  services: Services;
  worker: AutomationWorker;
  comparisonWorker: ComparisonWorker;
  conversationWorker: ConversationWorker;
  /** Takes no new job, lets the ones under way finish, then closes the browsers and Redis. */
  stop(): Promise<void>;
}

/**
 * A worker's services and queue side (worker.ts, and tests that run workers in their own process):
 * the same services one process builds, whose messages to users go through Redis.
 */
export async function startWorker(
  config: Config,
  db: Database,
  log: FastifyBaseLogger,
): Promise<RunningWorker> {
  if (!config.redisUrl) throw new Error('A worker needs REDIS_URL');
  await checkRedis(config.redisUrl);
  const redis = openRedis(config.redisUrl, 'worker', log);
  // Which users have sockets, on any web process: a live browser streams and stays open while watched.
  const presence = new PresenceMap(redis.subscriber);
  await presence.start();
  const channel = new RedisUserChannel({
    messages: redis.commands,
    frames: redis.frames,
    log,
    connectionCount: (userId) => presence.connectionCount(userId),
  });
  const services = await createServices(config, db, log, channel, { role: 'worker' });
  const worker = new AutomationWorker({
    automation: services.localAutomation,
    channel,
    redis: redis.commands,
    subscriber: redis.subscriber,
    connection: redis.queue,
    concurrency: Math.max(1, Math.floor(config.maxBrowsers / config.automationParallelism)),
    lockMs: config.workerLockMs,
    log,
  });
  const comparisonWorker = new ComparisonWorker({
    comparisons: services.comparisons,
    channel,
    redis: redis.commands,
    subscriber: redis.subscriber,
    connection: redis.queue,
    // A comparison takes up to MAX_BROWSERS_PER_USER browsers (one per viewport).
    concurrency: Math.max(1, Math.floor(config.maxBrowsers / config.maxBrowsersPerUser)),
    lockMs: config.workerLockMs,
    log,
  });
  const conversationWorker = new ConversationWorker({
    conversations: services.conversations,
    channel,
    redis: redis.commands,
    subscriber: redis.subscriber,
    connection: redis.queue,
    concurrency: Math.max(1, config.maxLiveBrowsers),
    lockMs: config.workerLockMs,
    log,
  });
  await worker.start();
  await comparisonWorker.start();
  await conversationWorker.start();
  return {
    services,
    worker,
    comparisonWorker,
    conversationWorker,
    async stop() {
      await Promise.all([worker.stop(), comparisonWorker.stop(), conversationWorker.stop()]);
      await presence.stop();
      await services.localAutomation.shutdown();
      await services.pool.close();
      await redis.close();
    },
  };
}
