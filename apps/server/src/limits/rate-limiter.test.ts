import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config';
import { createRateLimits } from './rate-limits';

/** The limits as one process without Redis builds them, from these settings. */
const limitsOf = (env: Record<string, string>) => createRateLimits(loadConfig(env));
const hits = async (
  limit: { hit: (key: string) => Promise<{ allowed: boolean }> },
  key: string,
  n: number,
) => {
  const answers: boolean[] = [];
  for (let i = 0; i < n; i++) answers.push((await limit.hit(key)).allowed);
  return answers;
};

describe('the rate limits, in memory (one process)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('allows the configured count in a window, then refuses with the seconds left', async () => {
    const { loginPerIp } = limitsOf({ LOGIN_ATTEMPTS_PER_IP: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
    expect(await hits(loginPerIp, 'ip', 3)).toEqual([true, true, true]);
    vi.setSystemTime(15_000);
    expect(await loginPerIp.hit('ip')).toEqual({ allowed: false, retryAfterSeconds: 45 });
    // A refused attempt does not move the window's end.
    vi.setSystemTime(59_500);
    expect(await loginPerIp.hit('ip')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect((await loginPerIp.hit('other')).allowed).toBe(true);
  });

  it('opens again when the window ends, or when the key is reset', async () => {
    const { loginFailuresPerUser } = limitsOf({
      LOGIN_FAILURES_PER_USER: '1',
      RATE_LIMIT_WINDOW_SECONDS: '1',
    });
    expect(await hits(loginFailuresPerUser, 'user:a', 2)).toEqual([true, false]);
    vi.advanceTimersByTime(1000);
    expect(await hits(loginFailuresPerUser, 'user:a', 2)).toEqual([true, false]);
    await loginFailuresPerUser.reset('user:a');
    expect((await loginFailuresPerUser.hit('user:a')).allowed).toBe(true);
  });

  it('gives each limit its own setting and its own count', async () => {
    const limits = limitsOf({
      REGISTRATIONS_PER_IP: '2',
      CLEANUP_REQUESTS_PER_IP: '1',
      UPLOADS_PER_USER: '3',
      RATE_LIMIT_WINDOW_SECONDS: '900',
    });
    expect(await hits(limits.registrationsPerIp, 'ip', 3)).toEqual([true, true, false]);
    // The demo form has REGISTRATIONS_PER_IP too, counted apart from registrations.
    expect(await hits(limits.demoRequestsPerIp, 'ip', 3)).toEqual([true, true, false]);
    expect(await hits(limits.cleanupPerIp, 'ip', 2)).toEqual([true, false]);
    expect(await hits(limits.uploadsPerUser, 'u', 4)).toEqual([true, true, true, false]);
    expect(await limits.uploadsPerUser.hit('u')).toEqual({ allowed: false, retryAfterSeconds: 900 });
    // 'Test connection': 10 a minute, whatever RATE_LIMIT_WINDOW_SECONDS says.
    expect((await hits(limits.testConnectionPerUser, 'u', 11)).filter(Boolean)).toHaveLength(10);
    expect(await limits.testConnectionPerUser.hit('u')).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });

  it('ends each window at once with RATE_LIMIT_WINDOW_SECONDS=0, so only a limit of 0 refuses', async () => {
    const limits = limitsOf({
      LOGIN_ATTEMPTS_PER_IP: '1',
      REGISTRATIONS_PER_IP: '0',
      RATE_LIMIT_WINDOW_SECONDS: '0',
    });
    expect(await hits(limits.loginPerIp, 'ip', 3)).toEqual([true, true, true]);
    expect(await limits.registrationsPerIp.hit('ip')).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });
});

describe('the rate limits while Redis is unreachable', () => {
  let redis: Redis;
  beforeEach(() => {
    // Nothing listens on port 1: the connection never becomes ready and keeps retrying, as in an outage.
    redis = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: null, retryStrategy: () => 50 });
    redis.on('error', () => {});
  });
  afterEach(() => {
    redis.disconnect();
  });

  it('count in this process’s memory and answer at once, so logins keep working and stay limited', async () => {
    const limits = createRateLimits(
      loadConfig({
        LOGIN_ATTEMPTS_PER_IP: '2',
        LOGIN_FAILURES_PER_USER: '1',
        RATE_LIMIT_WINDOW_SECONDS: '60',
      }),
      redis,
    );
    const started = Date.now();
    expect(await hits(limits.loginPerIp, 'ip', 3)).toEqual([true, true, false]);
    expect(await limits.loginPerIp.hit('ip')).toEqual({ allowed: false, retryAfterSeconds: 60 });
    expect(await hits(limits.loginFailuresPerUser, 'user:a', 2)).toEqual([true, false]);
    await limits.loginFailuresPerUser.reset('user:a');
    expect((await limits.loginFailuresPerUser.hit('user:a')).allowed).toBe(true);
    expect(Date.now() - started).toBeLessThan(500);
    expect(redis.status).not.toBe('ready');
  });
});
