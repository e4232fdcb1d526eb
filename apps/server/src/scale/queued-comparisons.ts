import { randomUUID } from 'node:crypto';
import type { ClientMessageOf } from '@argus/protocol';
import type { Queue } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Senders } from '../comparison/comparison-deps';
import type { ComparisonFront } from '../comparison/comparison-front';
import type { ComparisonIntake } from '../comparison/comparison-intake';
import {
  ALREADY_COMPARING,
  COMPARISON_STOPPED,
  type CompareData,
  type ComparisonService,
  Refusal,
} from '../comparison/comparison-service';
import { AppError } from '../errors';
import type { Send, UserChannel } from '../realtime/user-channel';
import {
  type ComparisonControl,
  type ComparisonJob,
  type UserComparison,
  UserComparisonSchema,
} from './comparison-jobs';
import { CLAIM_TTL_MS, jobOfKey } from './job-keys';
import { COMPARISON_CONTROL, PERSIST_USER_KEY, RELEASE_USER_KEY, userComparison } from './redis-keys';

/** What a web process needs to queue comparisons (scale/redis-connections.ts makes the connections). */
export interface QueuedComparisonsDeps {
  queue: Queue;
  /** Commands: the per-user key, control messages. */
  redis: Redis;
  /** Every socket of a user, on every web process (RedisUserChannel). */
  users: UserChannel;
  /**
   * This process's own service, running no comparison: its checks, uploads and refusals take a request
   * before it is queued, and it answers what concerns no comparison (the Figma help).
   */
  local: ComparisonService;
  log: FastifyBaseLogger;
}

/**
 * Design comparisons as a web process hands them off when REDIS_URL is set
 * (docs/DEPLOYMENT.md#how-work-flows): a checked comparison becomes a BullMQ job that a worker takes,
 * checks again and runs (scale/comparison-worker.ts). One per user at a time, as in one process: the
 * user's key names the job from the moment it is queued until it ends. Its place in line, and a stop
 * of a comparison still queued, are said to every socket of the user on every web process.
 */
export class QueuedComparisons implements ComparisonFront {
  /** Checks a request here, as one process does, then queues it. */
  private readonly intake: ComparisonIntake;

  constructor(private readonly deps: QueuedComparisonsDeps) {
    this.intake = deps.local.intakeFor((userId, _request, data, _emit, requestId) =>
      this.enqueue(userId, data, requestId),
    );
  }

  compare(userId: string, data: CompareData, send: Senders): Promise<void> {
    return this.intake.compare(userId, data, send);
  }

  uploadAndCompare(
    userId: string,
    data: ClientMessageOf<'upload_and_compare_image'>['data'],
    send: Senders,
  ): Promise<void> {
    return this.intake.uploadAndCompare(userId, data, send);
  }

  help(data: ClientMessageOf<'get_figma_help'>['data'], send: Send): void {
    this.deps.local.help(data, send);
  }

  /**
   * Stops the user's comparison (of the session named, or any), queued or running, and has it said to
   * every socket of the user: by the worker holding it, else here. `_send` is not used: what the stop
   * says reaches every socket of the user.
   */
  async stop(userId: string, sessionId: string | null, _send: Send): Promise<void> {
    // A request still being checked is not queued once its checks end.
    this.intake.stopChecks(userId, sessionId);
    await this.stopQueued(userId, sessionId);
  }

  /** Queues a checked comparison; a Refusal (ALREADY_COMPARING) while the user's is queued or running. */
  private async enqueue(userId: string, data: CompareData, requestId?: string): Promise<void> {
    const { queue, redis } = this.deps;
    const jobId = randomUUID();
    const sessionId = data.session_id || null;
    const entry: UserComparison = { job_id: jobId, session_id: sessionId };
    const key = userComparison(userId);
    let claimed = await redis.set(key, JSON.stringify(entry), 'PX', CLAIM_TTL_MS, 'NX');
    if (!claimed && !(await this.current(userId))) {
      claimed = await redis.set(key, JSON.stringify(entry), 'PX', CLAIM_TTL_MS, 'NX');
    }
    if (!claimed) throw new Refusal(ALREADY_COMPARING);
    try {
      const job: ComparisonJob = { user_id: userId, ...(requestId ? { request_id: requestId } : {}), data };
      await queue.add('compare', job, { jobId, removeOnComplete: true, removeOnFail: 1000 });
    } catch (error) {
      await this.release(userId, jobId);
      this.deps.log.error({ err: error }, 'queueing a comparison failed');
      throw new AppError('INTERNAL', 'The work could not be queued: the queue is unreachable');
    }
    // Once queued, the job names the key; it no longer expires (the job's end clears it).
    await redis.eval(PERSIST_USER_KEY, 1, key, jobId);
    const ahead = await this.ahead(jobId);
    if (ahead > 0) {
      this.deps.users.sendToUser(userId, {
        type: 'vision_comparison_progress',
        session_id: sessionId,
        ...(requestId ? { request_id: requestId } : {}),
        data: {
          message: `Queued: ${ahead} ${ahead === 1 ? 'comparison' : 'comparisons'} ahead`,
          progress_percentage: 0,
        },
      });
    }
  }

  private async stopQueued(userId: string, sessionId: string | null): Promise<void> {
    const current = await this.current(userId);
    const stopped = (session: string | null) =>
      this.deps.users.sendToUser(userId, {
        type: 'vision_comparison_error',
        session_id: session,
        data: { error: COMPARISON_STOPPED },
      });
    if (!current || (sessionId && current.entry.session_id !== sessionId)) {
      // Nothing under way (the screen may have missed the end): said at once, as in one process.
      stopped(sessionId);
      return;
    }
    const { entry, state } = current;
    if (state !== 'active') {
      // Still queued: taken out of the queue, and nothing ever ran.
      const job = await this.deps.queue.getJob(entry.job_id);
      const removed = await (job?.remove() ?? Promise.resolve()).then(
        () => true,
        () => false,
      );
      if (removed) {
        await this.release(userId, entry.job_id);
        stopped(entry.session_id);
        return;
      }
    }
    // Running on a worker: the one comparing for the user stops it and says so.
    const control: ComparisonControl = { type: 'stop', user_id: userId, session_id: sessionId };
    await this.deps.redis.publish(COMPARISON_CONTROL, JSON.stringify(control));
  }

  /**
   * The user's queued or running comparison, or null. A key naming a job that is gone or over (its
   * worker and web process both died before clearing it) is stale: it is cleared.
   */
  private async current(userId: string): Promise<{ entry: UserComparison; state: string } | null> {
    const text = await this.deps.redis.get(userComparison(userId));
    if (!text) return null;
    let entry: UserComparison;
    try {
      entry = UserComparisonSchema.parse(JSON.parse(text));
    } catch {
      await this.deps.redis.del(userComparison(userId));
      return null;
    }
    const found = await jobOfKey(this.deps, userComparison(userId), entry.job_id);
    return found ? { entry, state: found.state } : null;
  }

  private async release(userId: string, jobId: string): Promise<void> {
    await this.deps.redis.eval(RELEASE_USER_KEY, 1, userComparison(userId), jobId);
  }

  /** Comparisons waiting before `jobId` (0 when it is next or already taken). */
  private async ahead(jobId: string): Promise<number> {
    const waiting = await this.deps.queue.getWaiting(0, 999);
    const ordered = [...waiting].sort((a, b) => a.timestamp - b.timestamp);
    return Math.max(
      0,
      ordered.findIndex((job) => job.id === jobId),
    );
  }

  async shutdown(): Promise<void> {
    await this.deps.queue.close();
  }
}
