import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import { AppError } from '../errors';
import type { DeclaredRoute } from '../routes/route-group';
import { REDIS_ANSWER_MS } from './rate-limiter';

/**
 * Heavy requests (analytics, exports: docs/HISTORY.md#limits) one user may have under way at once,
 * HEAVY_REQUESTS_PER_USER: one more is refused at once with 429 TOO_MANY_HEAVY_REQUESTS and a
 * Retry-After, rather than queued, so a user's burst (a dashboard's tabs, a script) holds at most that
 * many of the database's connections and cannot queue everyone else's requests behind its own.
 *
 * Counted in Redis when the process has one (every web process against one count), else in this
 * process's memory. A slot whose release never came (its process died) lapses after `leaseMs`.
 */
export interface HeavyRequests {
  /** HEAVY_REQUESTS_PER_USER. */
  readonly perUser: number;
  /** Takes one of the user's slots: `release` gives it back; refused, when to try again. */
  take(userId: string): Promise<{ release: () => void } | { retryAfterSeconds: number }>;
}

export interface HeavyRequestOptions {
  perUser: number;
  /**
   * How long a heavy request is expected to take at most (its statement limit): the Retry-After of a
   * refusal is when the oldest one under way will have ended by then.
   */
  expectedMs: number;
  /** How long an unreleased slot is held before it lapses. */
  leaseMs: number;
}

/** The options the server's settings give: a request's limit bounds how long one is under way. */
export function heavyRequestOptions(
  config: Pick<Config, 'heavyRequestsPerUser' | 'databaseStatementTimeoutMs'>,
): HeavyRequestOptions {
  const expectedMs = config.databaseStatementTimeoutMs || 60_000;
  return { perUser: config.heavyRequestsPerUser, expectedMs, leaseMs: expectedMs * 2 + 60_000 };
}

type Taken = { release: () => void } | { retryAfterSeconds: number };

function retryAfter(oldestStart: number, options: HeavyRequestOptions): { retryAfterSeconds: number } {
  const seconds = Math.ceil((oldestStart + options.expectedMs - Date.now()) / 1000);
  return { retryAfterSeconds: Math.min(Math.max(1, seconds), Math.ceil(options.expectedMs / 1000)) };
}

/** The count in this process: each user's requests under way, by their start. */
function inMemory(options: HeavyRequestOptions): HeavyRequests {
  const running = new Map<string, Set<{ start: number }>>();
  return {
    perUser: options.perUser,
    async take(userId) {
      const now = Date.now();
      const held = running.get(userId) ?? new Set();
      for (const slot of held) if (slot.start <= now - options.leaseMs) held.delete(slot);
      if (held.size >= options.perUser)
        return retryAfter(Math.min(...[...held].map((slot) => slot.start)), options);
      const slot = { start: now };
      held.add(slot);
      running.set(userId, held);
      return {
        release: () => {
          held.delete(slot);
          if (held.size === 0 && running.get(userId) === held) running.delete(userId);
        },
      };
    },
  };
}

/**
 * Atomically: forget lapsed slots, refuse when `limit` are held (answering the oldest's start), else
 * hold one more. KEYS[1] the user's sorted set (member → start); ARGV now, lease, limit, member.
 */
const TAKE = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local lease = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - lease)
if redis.call('ZCARD', key) >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return {0, oldest[2]}
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, lease)
return {1, now}
`;

/**
 * The count in Redis. While Redis is unreachable (not ready, or no answer within REDIS_ANSWER_MS) the
 * request is counted in this process's memory instead, as the rate limits do (rate-limiter.ts): the
 * limit then holds per process until Redis is back.
 */
export function createHeavyRequests(options: HeavyRequestOptions, redis?: Redis): HeavyRequests {
  const memory = inMemory(options);
  if (!redis) return memory;
  return {
    perUser: options.perUser,
    async take(userId) {
      if (redis.status !== 'ready') return memory.take(userId);
      const key = `argus:heavy:${userId}`;
      const member = randomUUID();
      const asked = redis.eval(TAKE, 1, key, Date.now(), options.leaseMs, options.perUser, member) as Promise<
        [number, string | number]
      >;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), REDIS_ANSWER_MS);
      });
      const answer = await Promise.race([asked, late]).catch(() => 'failed' as const);
      clearTimeout(timer);
      if (answer === 'late' || answer === 'failed') {
        // A slot Redis grants after all is given back at once: this request is counted in memory.
        asked
          .then(([held]) => {
            if (held === 1) return redis.zrem(key, member);
          })
          .catch(() => {});
        return memory.take(userId);
      }
      const [held, start] = answer;
      if (held !== 1) return retryAfter(Number(start), options);
      return { release: () => void redis.zrem(key, member).catch(() => {}) };
    },
  };
}

/**
 * A route counted as heavy, wrapped where it is declared: `heavy(route({…}))` in its group, the
 * group's deps holding the server's `limits`. Refused past the user's limit before its handler does
 * anything; its slot is given back once the handler has answered (or failed).
 */
export function heavy<D extends { limits: { heavyRequests: HeavyRequests } }>(
  declared: DeclaredRoute<D>,
): DeclaredRoute<D> {
  return {
    ...declared,
    async handle(input, deps) {
      const { heavyRequests } = deps.limits;
      const taken: Taken = await heavyRequests.take(input.user.id);
      if (!('release' in taken)) {
        throw new AppError(
          'TOO_MANY_HEAVY_REQUESTS',
          `You already have ${heavyRequests.perUser} analytics or export requests under way (HEAVY_REQUESTS_PER_USER); try again once one has finished`,
          { 'retry-after': String(taken.retryAfterSeconds) },
        );
      }
      try {
        return await declared.handle(input, deps);
      } finally {
        taken.release();
      }
    },
  };
}
