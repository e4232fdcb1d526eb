import type { ServerMessageInput } from '@argus/protocol';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ComparisonService } from '../comparison/comparison-service';
import { echoing, type UserChannel } from '../realtime/user-channel';
import { ComparisonControlSchema, ComparisonJobSchema } from './comparison-jobs';
import { QueueWorker, type QueueWorkerOptions } from './queue-worker';
import { COMPARISON_CONTROL, COMPARISON_QUEUE, RELEASE_USER_KEY, userComparison } from './redis-keys';

export interface ComparisonWorkerDeps
  extends Pick<QueueWorkerOptions, 'subscriber' | 'connection' | 'concurrency' | 'lockMs' | 'log'> {
  comparisons: ComparisonService;
  /** The user's sockets, through Redis (RedisUserChannel). */
  channel: UserChannel;
  /** Commands. */
  redis: Redis;
}

/**
 * A worker process's side of the comparison queue (docs/DEPLOYMENT.md#how-work-flows): takes the
 * comparisons web processes checked and queued, checks each again and runs it through the same
 * ComparisonService one process uses, over this process's browsers; its progress and outcome reach
 * every socket of the user through Redis. A stop from any web process reaches the worker comparing.
 * A comparison whose worker died is taken up again once and starts over (it stores nothing until its end).
 */
export class ComparisonWorker {
  private readonly queue: QueueWorker;
  /** Comparisons this worker has taken (for tests and diagnostics). */
  taken = 0;

  constructor(private readonly deps: ComparisonWorkerDeps) {
    this.queue = new QueueWorker({
      ...deps,
      queue: COMPARISON_QUEUE,
      control: COMPARISON_CONTROL,
      process: (job) => this.process(job),
      onControl: (text) => this.control(text),
    });
  }

  start(): Promise<void> {
    return this.queue.start();
  }

  /** Takes no new comparison; the ones under way finish. */
  stop(): Promise<void> {
    return this.queue.stop();
  }

  private async process(job: Job): Promise<void> {
    this.taken++;
    const { comparisons, channel, redis, log } = this.deps;
    const parsed = ComparisonJobSchema.safeParse(job.data);
    if (!parsed.success) {
      // Nobody to tell but the log: without a valid user the job cannot be addressed.
      log.error({ jobId: job.id, issues: parsed.error.issues.slice(0, 5) }, 'a comparison job was refused');
      return;
    }
    const { user_id: userId, data, request_id: requestId } = parsed.data;
    try {
      await comparisons.compareQueued(
        userId,
        data,
        echoing((message: ServerMessageInput) => channel.sendToUser(userId, message), requestId),
      );
    } finally {
      await redis.eval(RELEASE_USER_KEY, 1, userComparison(userId), String(job.id));
    }
  }

  private async control(text: string): Promise<void> {
    const { comparisons, channel } = this.deps;
    const parsed = ComparisonControlSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return;
    const { user_id: userId, session_id: sessionId } = parsed.data;
    // Only the worker comparing for the user answers.
    if (!comparisons.comparing(userId)) return;
    await comparisons.stop(userId, sessionId, (message) => channel.sendToUser(userId, message));
  }
}
