import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHeavyRequests, type HeavyRequestOptions, type HeavyRequests } from './heavy-requests';

const OPTIONS: HeavyRequestOptions = { perUser: 2, expectedMs: 15_000, leaseMs: 60_000 };

/** The release of a slot that was given (failing the test when it was refused). */
function released(taken: Awaited<ReturnType<HeavyRequests['take']>>): () => void {
  if (!('release' in taken)) throw new Error(`refused: ${JSON.stringify(taken)}`);
  return taken.release;
}

/** What every store must do, given a fresh pair of processes' counts over it. */
function behavesAsALimit(countsOf: () => [HeavyRequests, HeavyRequests]) {
  it('refuses a user a third heavy request at once, with a Retry-After, while another user is served', async () => {
    const [one] = countsOf();
    const alice = randomUUID();
    const first = released(await one.take(alice));
    released(await one.take(alice));
    const refused = await one.take(alice);
    expect(refused).toEqual({ retryAfterSeconds: expect.any(Number) });
    const { retryAfterSeconds } = refused as { retryAfterSeconds: number };
    // The oldest started just now: it ends within the limit of a heavy request (15 s).
    expect(retryAfterSeconds).toBeGreaterThanOrEqual(14);
    expect(retryAfterSeconds).toBeLessThanOrEqual(15);
    released(await one.take(randomUUID()));
    first();
    // A release is given back once, however often it is called.
    first();
    released(await one.take(alice));
    expect('retryAfterSeconds' in (await one.take(alice))).toBe(true);
  });

  it('counts the slots of every process over the same store together', async () => {
    const [one, two] = countsOf();
    const bob = randomUUID();
    released(await one.take(bob));
    const second = released(await two.take(bob));
    expect('retryAfterSeconds' in (await one.take(bob))).toBe(true);
    second();
    await new Promise((resolve) => setTimeout(resolve, 50));
    released(await one.take(bob));
  });
}

describe('heavy requests counted in one process', () => {
  behavesAsALimit(() => {
    const memory = createHeavyRequests(OPTIONS);
    return [memory, memory];
  });

  it('lets a slot whose release never came lapse', async () => {
    const counts = createHeavyRequests({ ...OPTIONS, leaseMs: 100 });
    released(await counts.take('carol'));
    released(await counts.take('carol'));
    expect('retryAfterSeconds' in (await counts.take('carol'))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 150));
    released(await counts.take('carol'));
  });
});

describe('heavy requests counted in Redis', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis('redis://127.0.0.1:6379/12', { maxRetriesPerRequest: null });
    await redis.ping();
  });
  afterAll(async () => {
    const keys = await redis.keys('argus:heavy:*');
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  // Two web processes: two counts over one Redis.
  behavesAsALimit(() => [createHeavyRequests(OPTIONS, redis), createHeavyRequests(OPTIONS, redis)]);

  it('counts in memory at once while Redis is unreachable', async () => {
    // Nothing listens on port 1: the connection never becomes ready, as in an outage.
    const down = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: null, retryStrategy: () => 50 });
    down.on('error', () => {});
    try {
      const counts = createHeavyRequests(OPTIONS, down);
      const started = Date.now();
      released(await counts.take('dave'));
      released(await counts.take('dave'));
      expect('retryAfterSeconds' in (await counts.take('dave'))).toBe(true);
      expect(Date.now() - started).toBeLessThan(500);
    } finally {
      down.disconnect();
    }
  });
});
