import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { RedisLine } from '../run-lines/redis-line';
import { type UserAutomation, UserAutomationSchema } from './automation-jobs';
import { CLAIM_TTL_MS } from './job-keys';
import {
  AUTOMATION_JOB_PREFIX,
  AUTOMATION_LINE_PREFIX,
  LINE_MOVED,
  LINE_RUNS,
  userAutomation,
} from './redis-keys';

/** The automation line in Redis (run-lines/redis-line.ts) under this deployment's keys. */
export function automationLine(redis: Redis): RedisLine {
  return new RedisLine({ redis, prefix: AUTOMATION_LINE_PREFIX, jobPrefix: AUTOMATION_JOB_PREFIX });
}

/** A user's piece of automation work, and whether it still waits its turn. */
export interface UserWork {
  entry: UserAutomation;
  waiting: boolean;
}

/**
 * The user's automation work waiting or going, oldest first (their hash, scale/redis-keys.ts). An
 * entry neither in the line nor held by a live job (its worker and web process both died, or it ended
 * and its clean-up was lost) is stale once it is older than a claim: it is dropped, so nothing stays
 * busy for ever.
 */
export async function userWork(deps: { redis: Redis; queue: Queue; line: RedisLine }, userId: string) {
  const { redis, queue, line } = deps;
  const fields = await redis.hgetall(userAutomation(userId));
  const found: UserWork[] = [];
  for (const [field, text] of Object.entries(fields)) {
    const parsed = UserAutomationSchema.safeParse(safeJson(text));
    if (!parsed.success) {
      await redis.hdel(userAutomation(userId), field);
      continue;
    }
    const entry = parsed.data;
    if (await line.waits(entry.job_id)) {
      found.push({ entry, waiting: true });
      continue;
    }
    const job = entry.bound ? await queue.getJob(entry.bound) : undefined;
    const state = job ? await job.getState() : 'unknown';
    const live = state !== 'completed' && state !== 'failed' && state !== 'unknown';
    if (live || Date.now() - entry.queued_at < CLAIM_TTL_MS) found.push({ entry, waiting: false });
    else await redis.hdel(userAutomation(userId), field);
  }
  return found.sort((a, b) => a.entry.queued_at - b.entry.queued_at);
}

/** Writes into the user's entry which BullMQ job took its turn (and, once recorded, its run). */
export async function bindUserWork(
  redis: Redis,
  userId: string,
  entryId: string,
  change: Partial<Pick<UserAutomation, 'bound' | 'run_id'>>,
): Promise<void> {
  await redis.eval(UPDATE_ENTRY, 1, userAutomation(userId), entryId, JSON.stringify(change));
}

/** The work is over (or left the line): out of the user's hash and the waiting runs; the line moved. */
export async function endUserWork(
  redis: Redis,
  entry: Pick<UserAutomation, 'job_id' | 'run_id'>,
  userId: string,
) {
  await redis.hdel(userAutomation(userId), entry.job_id);
  if (entry.run_id) await redis.hdel(LINE_RUNS, entry.run_id);
  await redis.publish(LINE_MOVED, '1');
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Merges ARGV[2] (JSON) into the hash KEYS[1]'s field ARGV[1], if it is still there. */
const UPDATE_ENTRY = `
local value = redis.call('HGET', KEYS[1], ARGV[1])
if not value then return 0 end
local entry = cjson.decode(value)
for k, v in pairs(cjson.decode(ARGV[2])) do entry[k] = v end
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(entry))
return 1`;
