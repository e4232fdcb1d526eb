import type { ServerMessageInput } from '@argus/protocol';
import type { Job } from 'bullmq';
import type { ComparisonService } from '../comparison/comparison-service';
import { echoing } from '../realtime/user-channel';
import { ComparisonControlSchema, ComparisonJobSchema } from './comparison-jobs';
import type { JobsDeps, QueueJobs } from './queue-worker';
import { COMPARISON_CONTROL, COMPARISON_QUEUE, RELEASE_USER_KEY, userComparison } from './redis-keys';

export interface ComparisonWorkerDeps extends JobsDeps {
  comparisons: ComparisonService;
}

/**
 * A worker process's side of the comparison queue (docs/DEPLOYMENT.md#how-work-flows): takes the
 * comparisons web processes checked and queued, checks each again and runs it through the same
 * ComparisonService one process uses, over this process's browsers; its progress and outcome reach
 * every socket of the user through Redis. A stop from any web process reaches the worker comparing.
 * A comparison whose worker died is taken up again once and starts over (it stores nothing until its end).
 * On a stop, the comparisons under way finish. A QueueWorker takes its jobs.
 */
export class ComparisonWorker implements QueueJobs {
  readonly queue = COMPARISON_QUEUE;
  readonly controlChannel = COMPARISON_CONTROL;

  constructor(private readonly deps: ComparisonWorkerDeps) {}

  async process(job: Job): Promise<void> {
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

  async onControl(text: string): Promise<void> {
    const { comparisons, channel } = this.deps;
    const parsed = ComparisonControlSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return;
    const { user_id: userId, session_id: sessionId } = parsed.data;
    // Only the worker comparing for the user answers.
    if (!comparisons.comparing(userId)) return;
    await comparisons.stop(userId, sessionId, (message) => channel.sendToUser(userId, message));
  }
}
