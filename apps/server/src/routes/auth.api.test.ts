import { ChangePasswordResponseSchema } from '@argus/protocol';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTargets, client, declareOversizedBody } from '../testing/api-targets';
import type { RunningServer } from '../testing/spawn-server';

const JWT_SECRET = 'test-secret-for-forging-tokens-0123456789';

describe.each(apiTargets())('auth API on $name', ({ start }) => {
  let server: RunningServer;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    server = await start({ JWT_SECRET, LOGIN_FAILURES_PER_USER: '3', REGISTRATIONS_PER_IP: '1000' });
    api = client(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('registers a user and answers 201 with the public user, never the hash', async () => {
    const res = await api.register('alice', 'Passw0rd1', 'Alice@Example.com');
    expect(res.status).toBe(201);
    expect(res.data.user).toMatchObject({ username: 'alice', email: 'Alice@Example.com', full_name: null });
    expect(JSON.stringify(res.data)).not.toMatch(/hash|argon/i);
  });

  it('refuses a duplicate username or email, whatever the case, with 409 and a clear detail', async () => {
    const sameName = await api.register('ALICE', 'Passw0rd1', 'new@example.com');
    expect(sameName.status).toBe(409);
    expect(sameName.data.detail).toBe('Username already registered');
    const sameEmail = await api.register('alice2', 'Passw0rd1', 'alice@example.COM');
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.data.detail).toBe('Email already registered');
  });

  it('answers 422 with FastAPI-style details naming each bad field', async () => {
    const res = await api.call('POST', '/api/auth/register', {
      json: { username: 'x', email: 'not-an-email', password: 'short', confirmPassword: 'other' },
    });
    expect(res.status).toBe(422);
    const locs = res.data.detail.map((d: { loc: string[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.username', 'body.email', 'body.password']));
    for (const d of res.data.detail)
      expect(d).toEqual({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });
    const missing = await api.call('POST', '/api/auth/register', { json: {} });
    expect(missing.data.detail).toContainEqual({
      loc: ['body', 'username'],
      msg: 'Field required',
      type: 'missing',
    });
  });

  it('refuses a confirmation that does not match', async () => {
    const res = await api.call('POST', '/api/auth/register', {
      json: {
        username: 'bob',
        email: 'bob@example.com',
        password: 'Passw0rd1',
        confirmPassword: 'Passw0rd2',
      },
    });
    expect(res.status).toBe(422);
    expect(res.data.detail[0]).toMatchObject({
      loc: ['body', 'confirmPassword'],
      msg: 'Passwords do not match',
    });
  });

  it('logs in form-encoded by username or by email and answers access_token and user', async () => {
    for (const login of ['alice', 'alice@example.com', 'ALICE']) {
      const res = await api.login(login);
      expect(res.status).toBe(200);
      expect(res.data).toMatchObject({ token_type: 'bearer', user: { username: 'alice' } });
      expect(res.data.access_token.split('.')).toHaveLength(3);
    }
  });

  it('gives a wrong password and an unknown user the same 401', async () => {
    const wrong = await api.login('alice', 'Wrong-pass1');
    const unknown = await api.login('nobody-here', 'Wrong-pass1');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.data).toEqual(unknown.data);
  });

  it('rate-limits failed logins per username with 429 and Retry-After', async () => {
    await api.register('carol');
    for (let i = 0; i < 3; i++) expect((await api.login('carol', 'Wrong-pass1')).status).toBe(401);
    const limited = await api.login('carol', 'Wrong-pass1');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Even the right password waits out the window: the guesser cannot tell.
    expect((await api.login('carol')).status).toBe(429);
    // Other accounts are unaffected.
    expect((await api.login('alice')).status).toBe(200);
  });

  it('answers /api/auth/me for a valid token and 401 for missing, tampered, expired or foreign tokens', async () => {
    const { token, user } = await api.signUp('dave');
    const me = await api.call('GET', '/api/auth/me', { token });
    expect(me.status).toBe(200);
    expect(me.data).toMatchObject({ id: user.id, username: 'dave' });

    expect((await api.call('GET', '/api/auth/me')).status).toBe(401);
    const [h, p, s] = token.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ sub: 'x', iss: 'argus' })).toString('base64url')}.${s}`;
    expect((await api.call('GET', '/api/auth/me', { token: tampered })).status).toBe(401);
    expect((await api.call('GET', '/api/auth/me', { token: `${h}.${p}.${s}x` })).status).toBe(401);

    const key = new TextEncoder().encode(JWT_SECRET);
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer('argus')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(key);
    const res = await api.call('GET', '/api/auth/me', { token: expired });
    expect(res.status).toBe(401);
    expect(res.data.detail).toBe('Token has expired');
    const otherKey = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer('argus')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-entirely-0123456789'));
    expect((await api.call('GET', '/api/auth/me', { token: otherKey })).status).toBe(401);
  });

  it('changes the password, revokes older tokens and hands back a fresh one', async () => {
    const { token } = await api.signUp('erin');
    // Tokens carry whole-second issue times: let the clock tick so the old one predates the change.
    await new Promise((r) => setTimeout(r, 1100));
    const bad = await api.call('POST', '/api/auth/change-password', {
      token,
      json: { current_password: 'Nope1234', new_password: 'Newpass12' },
    });
    expect(bad.status).toBe(400);
    expect(bad.data.detail).toBe('Current password is incorrect');
    const weak = await api.call('POST', '/api/auth/change-password', {
      token,
      json: { current_password: 'Passw0rd1', new_password: 'weak' },
    });
    expect(weak.status).toBe(422);
    const ok = await api.call('POST', '/api/auth/change-password', {
      token,
      json: { current_password: 'Passw0rd1', new_password: 'Newpass12', confirm_password: 'Newpass12' },
    });
    expect(ok.status).toBe(200);
    expect(ok.data.message).toBe('Password changed successfully');
    // The shape the web client reads to keep the fresh token.
    expect(ChangePasswordResponseSchema.safeParse(ok.data).success).toBe(true);
    expect((await api.call('GET', '/api/auth/me', { token })).status).toBe(401);
    expect((await api.call('GET', '/api/auth/me', { token: ok.data.access_token })).status).toBe(200);
    expect((await api.login('erin', 'Passw0rd1')).status).toBe(401);
    expect((await api.login('erin', 'Newpass12')).status).toBe(200);
  });

  it('serves the same endpoints under /auth for the other client', async () => {
    const reg = await api.call('POST', '/auth/register', {
      json: { username: 'frank', email: 'frank@example.com', password: 'Passw0rd1' },
    });
    expect(reg.status).toBe(201);
    const login = await api.call('POST', '/auth/login', {
      body: new URLSearchParams({ username: 'frank', password: 'Passw0rd1' }),
    });
    expect(login.status).toBe(200);
    const me = await api.call('GET', '/auth/me', { token: login.data.access_token });
    expect(me.data.username).toBe('frank');
  });

  it('answers malformed JSON with 400 and an oversized body with 413, and keeps serving', async () => {
    const malformed = await api.call('POST', '/api/auth/register', {
      body: '{"username": "x",',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.data.detail).toMatch(/not valid JSON/);
    const huge = await declareOversizedBody(server.url, '/api/auth/register', 2 * 1024 * 1024);
    expect(huge.status).toBe(413);
    expect(huge.data).toMatchObject({ detail: 'Request body is too large' });
    expect((await api.call('GET', '/api/health')).status).toBe(200);
  });

  it('refuses SQL metacharacters and 10 KB strings in account fields with 422, never 500', async () => {
    const inject = `x' OR '1'='1'; DROP TABLE users;--`;
    for (const body of [
      { username: inject, email: 'i@example.com', password: 'Passw0rd1' },
      { username: 'y'.repeat(10_240), email: 'j@example.com', password: 'Passw0rd1' },
      { username: 'okname', email: `${'k'.repeat(10_240)}@example.com`, password: 'Passw0rd1' },
      { username: 'okname', email: 'k@example.com', password: `Aa1${'p'.repeat(10_240)}` },
    ]) {
      expect((await api.call('POST', '/api/auth/register', { json: body })).status).toBe(422);
    }
    const login = await api.login(inject, inject);
    expect(login.status).toBe(401);
    expect((await api.login('alice')).status).toBe(200);
  });
});
