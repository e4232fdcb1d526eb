import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openMigratedPglite } from '@argus/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, redactUrl } from './app';
import { loadConfig } from './config';

// In-process tests with app.inject(): what needs a chosen client address or direct database access.
describe('app (in-process, PGlite in memory)', () => {
  let app: FastifyInstance;
  let db: Database;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'argus-inject-'));
    const config = loadConfig({ DATA_DIR: dataDir, LOGIN_ATTEMPTS_PER_IP: '3', REGISTRATIONS_PER_IP: '100' });
    db = await openMigratedPglite();
    app = await buildApp({ config, db, logger: false });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await db?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const login = (ip: string, username = 'someone') =>
    app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: ip,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username, password: 'Whatever1' }).toString(),
    });

  it('rate-limits login attempts per client IP, whatever the username', async () => {
    for (let i = 0; i < 3; i++) expect((await login('10.0.0.1', `user${i}`)).statusCode).toBe(401);
    const limited = await login('10.0.0.1', 'user-new');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      detail: 'Too many attempts. Please try again later.',
      code: 'RATE_LIMITED',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login('10.0.0.2')).statusCode).toBe(401);
  });

  it('stores every text field of a demo request verbatim, SQL metacharacters and 5 KB messages included', async () => {
    const body = {
      name: `O'Brien"; DROP TABLE demo_requests;--`,
      email: 'ob@example.com',
      company: `Acme \\ 'Quotes' $1 %s`,
      message: `${"'".repeat(10)}${'m'.repeat(5000 - 10)}`,
    };
    const res = await app.inject({ method: 'POST', url: '/api/demo-requests', payload: body });
    expect(res.statusCode).toBe(201);
    const [stored] = await app.services.repos.demoRequests.list(1);
    expect(stored).toMatchObject(body);
    const tooLong = await app.inject({
      method: 'POST',
      url: '/api/demo-requests',
      payload: { ...body, message: 'm'.repeat(10_240) },
    });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().detail[0].loc).toEqual(['body', 'message']);
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/demo-requests',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().detail).toBe('Unsupported content type');
  });

  it('sets defensive headers on every answer', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});

describe('redactUrl', () => {
  it('hides tokens in query strings and leaves the rest', () => {
    expect(redactUrl('/ws/u1?token=abc.def&x=1')).toBe('/ws/u1?token=[redacted]&x=1');
    expect(redactUrl('/p?a=1&access_token=zzz')).toBe('/p?a=1&access_token=[redacted]');
    expect(redactUrl('/api/screenshots/s1/image?owner=u1&expires=9&sig=Ab-_')).toBe(
      '/api/screenshots/s1/image?owner=u1&expires=9&sig=[redacted]',
    );
    expect(redactUrl('/api/health')).toBe('/api/health');
  });
});
