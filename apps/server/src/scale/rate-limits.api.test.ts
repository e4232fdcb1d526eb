/**
 * Request limits across web processes (docs/DEPLOYMENT.md#redis): two spawned web processes on one
 * Redis and one PostgreSQL count logins against ONE limit, not one each, and either process answers the
 * refusal with its Retry-After. Needs TEST_DATABASE_URL (REDIS_URL needs a shared database), as CI sets.
 */
import { createScratchDatabase } from '@argus/db';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../testing/api-targets';
import { type RunningServer, spawnServer } from '../testing/spawn-server';

const PG_URL = process.env.TEST_DATABASE_URL;
/** A Redis database of its own, emptied before and after. */
const REDIS_URL = 'redis://127.0.0.1:6379/10';
const WINDOW_SECONDS = 600;

describe.skipIf(!PG_URL)('rate limits across two web processes', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  const webs: RunningServer[] = [];
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    await redis.flushdb();
    scratch = await createScratchDatabase(PG_URL as string);
    const env = {
      REDIS_URL,
      DATABASE_URL: scratch.url,
      // Each test's requests say which client they come from, so the limits per IP are apart.
      TRUST_PROXY: '127.0.0.1',
      LOGIN_ATTEMPTS_PER_IP: '6',
      LOGIN_FAILURES_PER_USER: '4',
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
    };
    const first = await spawnServer(env);
    webs.push(first, await spawnServer({ ...env, DATA_DIR: first.dataDir }));
  }, 180_000);

  afterAll(async () => {
    // The first owns the data directory: it goes last.
    for (const web of [...webs].reverse()) await web.stop();
    await scratch?.drop();
    await redis?.flushdb();
    redis?.disconnect();
  });

  /** A login through web process `i % 2`, from the client address `ip`. */
  const login = (i: number, ip: string, username: string, password: string) =>
    client(webs[i % 2]).call('POST', '/api/auth/login', {
      body: new URLSearchParams({ username, password }),
      headers: { 'x-forwarded-for': ip },
    });
  const retryAfter = (res: { headers: Headers }) => Number(res.headers.get('retry-after'));

  it('refuses the 7th login from one address with LOGIN_ATTEMPTS_PER_IP=6, the logins alternating between the processes', async () => {
    const ip = '203.0.113.7';
    // Six attempts, three on each process (unknown accounts: only the per-IP limit counts them).
    for (let i = 0; i < 6; i++) {
      const res = await login(i, ip, `nobody${i}`, 'Wrong-pass1');
      expect(res.status, `attempt ${i + 1}`).toBe(401);
    }
    // Counted per process, each would still let three more through.
    for (const i of [6, 7]) {
      const refused = await login(i, ip, `nobody${i}`, 'Wrong-pass1');
      expect(refused.status).toBe(429);
      expect(refused.data.code).toBe('RATE_LIMITED');
      expect(retryAfter(refused)).toBeGreaterThan(0);
      expect(retryAfter(refused)).toBeLessThanOrEqual(WINDOW_SECONDS);
    }
    // The count lives in Redis, ending with its window.
    expect(await redis.get(`argus:limit:login-ip:${ip}`)).toBe('8');
    expect(await redis.ttl(`argus:limit:login-ip:${ip}`)).toBeGreaterThan(WINDOW_SECONDS - 60);
  });

  it('counts an account’s failures on both processes against one LOGIN_FAILURES_PER_USER, and a success on either resets them', async () => {
    // Each attempt from an address of its own: only the per-account limit applies.
    let n = 0;
    const attempt = (web: 0 | 1, password: string) => login(web, `198.51.100.${++n}`, 'ann', password);
    expect((await client(webs[0]).register('ann')).status).toBe(201);
    // Three failures on the first process; the right password on the second is the 4th attempt of 4.
    for (let i = 0; i < 3; i++) expect((await attempt(0, 'Wrong-pass1')).status).toBe(401);
    expect((await attempt(1, 'Passw0rd1')).status).toBe(200);
    // That success cleared the count for both: four more failures, two on each, are let through
    // (counted apart, the first process would refuse its 5th here).
    for (const web of [0, 1, 0, 1] as const) expect((await attempt(web, 'Wrong-pass1')).status).toBe(401);
    // The limit of 4 is spent on both, even for the right password (counted apart, the second would
    // have seen two failures since its reset).
    for (const web of [1, 0] as const) {
      const refused = await attempt(web, 'Passw0rd1');
      expect(refused.status).toBe(429);
      expect(retryAfter(refused)).toBeGreaterThan(0);
      expect(retryAfter(refused)).toBeLessThanOrEqual(WINDOW_SECONDS);
    }
  });
});
