import { randomUUID } from 'node:crypto';
import type { Database } from '@argus/db';
import { Queue } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import { loadJwtSecret } from '../auth/auth-service';
import type { Config } from '../config';
import { createRateLimits } from '../limits/rate-limits';
import { automationLine } from '../scale/automation-line';
import { OrphanRunSweeper } from '../scale/orphan-runs';
import { PresenceBeacon } from '../scale/presence';
import { QueuedAutomation } from '../scale/queued-automation';
import { QueuedComparisons } from '../scale/queued-comparisons';
import { QueuedConversations } from '../scale/queued-conversations';
import { RedisRelay, RedisUserChannel } from '../scale/redis-channel';
import { checkRedis, openRedis, type RedisConnections } from '../scale/redis-connections';
import { AUTOMATION_QUEUE, COMPARISON_QUEUE, CONVERSATION_QUEUE } from '../scale/redis-keys';
import type { RealtimeHub } from '../ws/realtime-hub';
import { buildCore, type Core } from './core';
import { buildLocalWork, type LocalWork } from './local-work';
import { buildServing, type Serving } from './serving';

/**
 * A web process (REDIS_URL): it serves the app and queues automation, comparisons and live browsers for
 * worker processes; what they say to users arrives through Redis (docs/DEPLOYMENT.md#how-work-flows).
 */
export async function composeWeb(
  config: Config,
  db: Database,
  log: FastifyBaseLogger,
  hub: RealtimeHub,
  redisUrl: string,
): Promise<Serving> {
  await checkRedis(redisUrl);
  const redis = openRedis(redisUrl, 'web', log);
  const secret = await loadJwtSecret(config.dataDir, config.jwtSecret);
  const core = await buildCore(config, db, log, secret);
  // Request limits are counted in Redis: one total across the web processes.
  const limits = createRateLimits(config, redis.commands);
  // Its own work holds no browser; its fronts ask it what concerns none (its words, its checks).
  const local = buildLocalWork(config, core, log, hub, { uploadLimit: limits.uploadsPerUser });
  const { automation, orphanRuns, comparisons, conversations } = queuedWork(config, core, local, redis, log);
  const serving = buildServing(
    config,
    core,
    local,
    { automation, conversationFront: conversations, comparisonFront: comparisons },
    { secret, limits, log },
  );
  const relay = new RedisRelay(redis.subscriber, hub, log);
  // Workers holding live browsers learn which users have sockets here (scale/presence.ts).
  const presence = new PresenceBeacon({
    redis: redis.commands,
    web: randomUUID(),
    counts: () => hub.socketsPerUser(),
    log,
  });
  const { start, stop } = serving.lifecycle;
  return {
    services: serving.services,
    lifecycle: {
      start: [
        () => relay.start(),
        () => automation.start(),
        () => orphanRuns.start(),
        () => {
          hub.onPresenceChange = () => presence.publish();
          presence.start();
        },
        ...start,
      ],
      stop: [
        ...stop,
        // The work goes on in the workers; this process just stops listening.
        () => {
          hub.onPresenceChange = null;
          presence.stop();
        },
        () => orphanRuns.stop(),
        () => automation.shutdown(),
        () => comparisons.shutdown(),
        () => conversations.shutdown(),
        () => relay.stop(),
        () => redis.close(),
      ],
    },
  };
}

/** The queues' side in a web process: each capability's queued front, and the sweeper of lost runs. */
function queuedWork(
  config: Config,
  core: Core,
  local: LocalWork,
  redis: RedisConnections,
  log: FastifyBaseLogger,
) {
  // Every socket of a user, on every web process.
  const users = new RedisUserChannel({ messages: redis.commands, frames: redis.frames, log });
  const automationQueue = new Queue(AUTOMATION_QUEUE, { connection: redis.queue });
  const automation = new QueuedAutomation({
    queue: automationQueue,
    redis: redis.commands,
    subscriber: redis.subscriber,
    line: automationLine(redis.commands),
    users,
    createRun: (actor, ids) => local.automation.prepareSavedRun(actor, ids),
    leftLine: (ownerId, runId) => local.automation.recordLeftLine(ownerId, runId),
    log,
  });
  // Marks runs whose job is lost interrupted (not those waiting their turn in the line).
  const orphanRuns = new OrphanRunSweeper({
    queue: automationQueue,
    testRuns: core.repos.testRuns,
    waitingRuns: () => automation.waitingRuns(),
    log,
  });
  const comparisons = new QueuedComparisons({
    queue: new Queue(COMPARISON_QUEUE, { connection: redis.queue }),
    redis: redis.commands,
    users,
    local: local.comparisons,
    log,
  });
  const conversations = new QueuedConversations({
    config,
    queue: new Queue(CONVERSATION_QUEUE, { connection: redis.queue }),
    redis: redis.commands,
    users,
    local: local.conversations,
    checkSession: (userId, sessionId) => core.recorder.checkSession(userId, sessionId),
    log,
  });
  return { automation, orphanRuns, comparisons, conversations };
}
