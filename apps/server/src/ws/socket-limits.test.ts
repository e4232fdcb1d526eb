import { describe, expect, it } from 'vitest';
import { RefusalCounter, SocketCounts, TokenBucket } from './socket-limits';

describe('socket limits', () => {
  it('a token bucket lets a burst through, then one message per 1/rate seconds, never more than the burst saved up', () => {
    let now = 0;
    const bucket = new TokenBucket(2, 3, () => now);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
    now += 499;
    expect(bucket.take()).toBe(false);
    now += 1;
    expect(bucket.take()).toBe(true);
    now += 60_000;
    expect(Array.from({ length: 4 }, () => bucket.take())).toEqual([true, true, true, false]);
  });

  it('refusals close a sender only past the limit within one window', () => {
    let now = 0;
    const refusals = new RefusalCounter(2, 10_000, () => now);
    expect([refusals.add(), refusals.add()]).toEqual([false, false]);
    now += 10_001;
    expect([refusals.add(), refusals.add(), refusals.add()]).toEqual([false, false, true]);
  });

  it('counts sockets per key and forgets a key with none left', () => {
    const counts = new SocketCounts();
    counts.add('10.0.0.1');
    counts.add('10.0.0.1');
    counts.add('10.0.0.2');
    counts.remove('10.0.0.1');
    expect([counts.get('10.0.0.1'), counts.get('10.0.0.2')]).toEqual([1, 1]);
    counts.remove('10.0.0.1');
    expect(counts.get('10.0.0.1')).toBe(0);
  });
});
