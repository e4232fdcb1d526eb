import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTargets, client } from './testing/api-targets';
import type { RunningServer } from './testing/spawn-server';

const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}"x\\u0000"${'}'.repeat(depth)}`;

describe('request body limits (PGlite)', () => {
  const [{ start }] = apiTargets();
  let server: RunningServer;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    server = await start({ REGISTRATIONS_PER_IP: '1000', CLEANUP_REQUESTS_PER_IP: '5' });
    api = client(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const postJson = (path: string, text: string) =>
    api.call('POST', path, { body: text, headers: { 'content-type': 'application/json' } });

  it('refuses JSON nested 5,000 and 100,000 deep with a coded 4xx while /api/health keeps answering', async () => {
    const started = Date.now();
    const timings: Record<string, number> = {};
    const timed = async <T>(name: string, work: Promise<T>) => {
      const result = await work;
      timings[name] = Date.now() - started;
      return result;
    };
    const [deep5k, objects5k, deep100k, health] = await Promise.all([
      timed('arrays 5,000 deep', postJson('/api/auth/register', nestedArrays(5_000))),
      timed('objects 5,000 deep with a NUL', postJson('/api/auth/register', nestedObjects(5_000))),
      timed('arrays 100,000 deep', postJson('/api/auth/register', nestedArrays(100_000))),
      timed('health', api.call('GET', '/api/health')),
    ]);
    console.log('[body limits] answered after (ms):', timings);
    for (const res of [deep5k, objects5k, deep100k]) {
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ detail: expect.stringMatching(/nested too deeply/), code: 'BODY_TOO_DEEP' });
    }
    expect(health.status).toBe(200);
  });

  it('refuses a body of more than 100,000 values with 413, and accepts one just within', async () => {
    const many = await postJson('/api/auth/register', `[${'0,'.repeat(100_000)}0]`);
    expect(many.status).toBe(413);
    expect(many.data.code).toBe('BODY_TOO_MANY_VALUES');
    // Within the limits the body reaches validation as before.
    const within = await postJson('/api/auth/register', `{"username":${nestedArrays(60)}}`);
    expect(within.status).toBe(422);
    expect(within.data.code).toBe('VALIDATION');
  });

  it('still finds NUL characters, with their path, in a body within the limits', async () => {
    const res = await api.call('POST', '/api/auth/register', {
      json: {
        username: 'nul\u0000name',
        email: 'a@example.com',
        password: 'Passw0rd1',
        confirmPassword: 'Passw0rd1',
      },
    });
    expect(res.status).toBe(422);
    expect(res.data.detail).toEqual([
      {
        loc: ['body', 'username'],
        msg: 'Text may not contain NUL (\\u0000) characters',
        type: 'nul_character',
      },
    ]);
    const form = await api.call('POST', '/api/auth/login', {
      body: 'username=a%00b&password=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(422);
    expect(form.data.detail[0].loc).toEqual(['body', 'username']);
  });

  it('keeps answering malformed JSON and prototype poisoning with 400 MALFORMED_JSON', async () => {
    expect((await postJson('/api/auth/register', '{"a":')).data.code).toBe('MALFORMED_JSON');
    const poisoned = await postJson('/api/auth/register', '{"__proto__":{"admin":true}}');
    expect(poisoned.status).toBe(400);
    expect(poisoned.data.code).toBe('MALFORMED_JSON');
    const empty = await postJson('/api/auth/register', '');
    expect(empty.status).toBe(400);
    expect(empty.data.code).toBe('MALFORMED_JSON');
  });

  it('refuses a form body of more than 100,000 fields with 413', async () => {
    const res = await api.call('POST', '/api/auth/login', {
      body: `username=a&password=b${'&x'.repeat(100_000)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(413);
    expect(res.data.code).toBe('BODY_TOO_MANY_VALUES');
  });

  it('applies the limits to a text/plain beacon, then rate-limits POST /cleanup per client with 429', async () => {
    const beacon = await api.call('POST', '/cleanup', {
      body: nestedArrays(100_000),
      headers: { 'content-type': 'text/plain' },
    });
    expect(beacon.status).toBe(400);
    expect(beacon.data.code).toBe('BODY_TOO_DEEP');
    // CLEANUP_REQUESTS_PER_IP=5: four more bad tokens answer 401, the sixth request 429.
    for (let i = 0; i < 4; i++) {
      const res = await api.call('POST', '/cleanup', {
        json: { token: 'not-a-token', type: 'cleanup_session', data: {} },
      });
      expect(res.status).toBe(401);
    }
    const limited = await api.call('POST', '/cleanup', {
      json: { token: 'not-a-token', type: 'cleanup_session', data: {} },
    });
    expect(limited.status).toBe(429);
    expect(limited.data.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('TRUST_PROXY (PGlite)', () => {
  const [{ start }] = apiTargets();
  let server: RunningServer;

  beforeAll(async () => {
    server = await start({ TRUST_PROXY: '127.0.0.1', CLEANUP_REQUESTS_PER_IP: '1' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('counts per-IP limits by the forwarded client address when the proxy is trusted', async () => {
    const api = client(server);
    const beacon = (clientIp: string) =>
      api.call('POST', '/cleanup', {
        json: { token: 'not-a-token', type: 'cleanup_session', data: {} },
        headers: { 'x-forwarded-for': clientIp },
      });
    expect((await beacon('203.0.113.7')).status).toBe(401);
    expect((await beacon('203.0.113.7')).status).toBe(429);
    expect((await beacon('203.0.113.8')).status).toBe(401);
  });
});
