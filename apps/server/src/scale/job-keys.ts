import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { RELEASE_USER_KEY } from './redis-keys';

/**
 * How long a per-user key (automation, comparison, live browser) lives before its job is queued; once
 * queued it lasts until the job ends and releases it.
 */
export const CLAIM_TTL_MS = 60_000;

/**
 * The job a per-user key names and its state, or null when the key is stale: its job is over or gone
 * (its worker and web process both died before releasing it) and the key is not a claim of the last
 * few seconds whose job is still being queued. A stale key is released, so the user is not locked out.
 */
export async function jobOfKey(
  deps: { redis: Redis; queue: Queue },
  key: string,
  jobId: string,
): Promise<{ job: Job | undefined; state: string } | null> {
  const job = await deps.queue.getJob(jobId);
  const state = job ? await job.getState() : 'unknown';
  const over = state === 'completed' || state === 'failed';
  if (over || (state === 'unknown' && (await deps.redis.pttl(key)) <= CLAIM_TTL_MS - 10_000)) {
    await deps.redis.eval(RELEASE_USER_KEY, 1, key, jobId);
    return null;
  }
  return { job, state };
}
