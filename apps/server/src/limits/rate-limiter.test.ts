import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('allows up to the limit in a window, then refuses with the seconds left', () => {
    let now = 0;
    const limiter = new RateLimiter(3, 60_000, () => now);
    expect([1, 2, 3].map(() => limiter.hit('ip').allowed)).toEqual([true, true, true]);
    now = 15_000;
    expect(limiter.hit('ip')).toEqual({ allowed: false, retryAfterSeconds: 45 });
    expect(limiter.blocked('ip').blocked).toBe(true);
    expect(limiter.hit('other').allowed).toBe(true);
  });

  it('opens again when the window ends or the key is reset', () => {
    let now = 0;
    const limiter = new RateLimiter(1, 1000, () => now);
    limiter.hit('a');
    expect(limiter.hit('a').allowed).toBe(false);
    now = 1000;
    expect(limiter.hit('a').allowed).toBe(true);
    limiter.reset('a');
    expect(limiter.blocked('a').blocked).toBe(false);
  });
});
