import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  RLWrapperTimeouts,
} from 'rate-limiter-flexible';

/**
 * One limit: at most `points` attempts per key (an IP, a user) in a fixed window that opens with the
 * key's first attempt. Counted by rate-limiter-flexible: in Redis when the process has one, so every
 * web process counts against the same total, else in this process's memory.
 */
export interface RateLimit {
  /** Counts one attempt; answers whether it was within the limit, and if not when the window ends. */
  hit(key: string): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
  /** Forgets the key's attempts (a successful login clears its failures). */
  reset(key: string): Promise<void>;
}

export interface RateLimitOptions {
  /** Names the limit's keys: `argus:limit:{name}:{key}` in Redis. */
  name: string;
  points: number;
  windowSeconds: number;
}

/**
 * How long a limit waits for a Redis that is connected but does not answer before it counts in memory
 * instead: a sign-in is never held up by Redis for longer.
 */
export const REDIS_ANSWER_MS = 2_000;

const ALLOWED = { allowed: true, retryAfterSeconds: 0 } as const;

/**
 * The limit, in `redis` when given. While Redis is unreachable (its connection not ready, or no answer
 * within REDIS_ANSWER_MS) the attempt is counted in this process's memory instead (the library's
 * insurance limiter): logins keep working and stay limited, per process, as before Redis was shared;
 * Redis's count takes over again once it is back. Refusing every login while Redis is down would
 * lock everyone out over an outage of a store that holds no account data.
 */
export function createRateLimit(options: RateLimitOptions, redis?: Redis): RateLimit {
  // The library reads a 0 s window as one that never ends; here, as before, 0 ends each window at once.
  if (options.windowSeconds === 0) return instantWindow(options.points);
  const shape = {
    points: options.points,
    duration: options.windowSeconds,
    keyPrefix: `argus:limit:${options.name}`,
  };
  const memory = new RateLimiterMemory(shape);
  if (!redis) return over(memory, (key) => memory.delete(key));
  const shared = new RateLimiterRedis({
    ...shape,
    storeClient: redis,
    // A connection that is not ready fails the call at once (to memory) instead of queueing it.
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
  const timed = new RLWrapperTimeouts({
    limiter: shared,
    timeoutMs: REDIS_ANSWER_MS,
    insuranceLimiter: memory,
  });
  return over(timed, async (key) => {
    // Memory's count goes too: it may hold attempts made during an outage.
    await memory.delete(key);
    if (redis.status === 'ready') await timed.delete(key);
    // Not ready: the deletion waits in the connection's queue and runs once Redis is back.
    else void shared.delete(key).catch(() => {});
  });
}

/** `hit` over the library's `consume`: a refusal is a RateLimiterRes, anything else a real failure. */
function over(
  limiter: RateLimiterMemory | RLWrapperTimeouts,
  reset: (key: string) => Promise<unknown>,
): RateLimit {
  return {
    async hit(key) {
      try {
        await limiter.consume(key);
        return ALLOWED;
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
      }
    },
    async reset(key) {
      await reset(key);
    },
  };
}

/** RATE_LIMIT_WINDOW_SECONDS=0: each attempt alone in its window, so only a limit of 0 refuses. */
function instantWindow(points: number): RateLimit {
  return {
    hit: async () => (points >= 1 ? ALLOWED : { allowed: false, retryAfterSeconds: 1 }),
    reset: async () => {},
  };
}
