/**
 * Personal API tokens (docs/CI.md#api-tokens): made with a login and shown once, stored hashed,
 * accepted as Bearer with their scope, refused once revoked or expired, never in a URL, never logged.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';

describe('API tokens', () => {
  let server: InProcessServer;
  let api: ReturnType<typeof client>;
  let alice: { token: string };
  let bob: { token: string };
  const made: string[] = [];
  const create = async (scope: string, extra: Record<string, unknown> = {}) => {
    const res = await api.call('POST', '/api/tokens', {
      token: alice.token,
      json: { name: `${scope} token`, scope, ...extra },
    });
    expect(res.status).toBe(201);
    made.push(res.data.token);
    return res.data as { id: string; token: string; hint: string; scope: string; expires_at: string | null };
  };

  beforeAll(async () => {
    server = await startInProcess({ LOG_LEVEL: 'debug' });
    api = client(server);
    alice = await api.signUp('alice');
    bob = await api.signUp('bob');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('shows a new token once and lists it after by name, scope and hint only', async () => {
    const token = await create('read', { expires_in_days: 30 });
    expect(token.token).toMatch(/^argus_[A-Za-z0-9_-]{43}$/);
    expect(token.token.startsWith(token.hint.replace('…', ''))).toBe(true);
    expect(Date.parse(token.expires_at ?? '') - Date.now()).toBeGreaterThan(29 * 86_400_000);
    const listed = await api.call('GET', '/api/tokens', { token: alice.token });
    expect(listed.status).toBe(200);
    expect(listed.data).toHaveLength(1);
    expect(JSON.stringify(listed.data)).not.toContain(token.token);
    expect(listed.data[0]).toMatchObject({
      id: token.id,
      name: 'read token',
      scope: 'read',
      revoked_at: null,
    });
    // Bob sees none of Alice's tokens and cannot revoke them.
    expect((await api.call('GET', '/api/tokens', { token: bob.token })).data).toEqual([]);
    const theirs = await api.call('DELETE', `/api/tokens/${token.id}`, { token: bob.token });
    expect(theirs.status).toBe(404);
    expect(theirs.data.code).toBe('TOKEN_NOT_FOUND');
  });

  it('stores only the hash of a token', async () => {
    const token = await create('full');
    const rows = (await server.app.services.db.orm.execute(
      `SELECT token_hash FROM api_tokens WHERE id = '${token.id}'`,
    )) as unknown as { rows: { token_hash: string }[] };
    expect(rows.rows[0].token_hash).toBe(createHash('sha256').update(token.token).digest('hex'));
    const everything = (await server.app.services.db.orm.execute('SELECT * FROM api_tokens')) as unknown as {
      rows: unknown[];
    };
    expect(JSON.stringify(everything.rows)).not.toContain(token.token);
  });

  it('authenticates a request as its owner and records when it was last used', async () => {
    const token = await create('read');
    const projects = await api.call('GET', '/api/projects', { token: token.token });
    expect(projects.status).toBe(200);
    const listed = await api.call('GET', '/api/tokens', { token: alice.token });
    const row = listed.data.find((t: { id: string }) => t.id === token.id);
    expect(Date.parse(row.last_used_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('holds each scope to what it allows', async () => {
    const read = await create('read');
    const run = await create('run');
    const full = await create('full');
    const project = {
      name: 'Shop',
      kind: 'web',
      environments: [{ name: 'staging', base_url: 'https://shop.test/' }],
    };
    const byRead = await api.call('POST', '/api/projects', { token: read.token, json: project });
    expect(byRead.status).toBe(403);
    expect(byRead.data).toEqual({
      code: 'TOKEN_SCOPE',
      detail: 'A read token cannot change anything: this needs a full token',
    });
    const byRun = await api.call('POST', '/api/projects', { token: run.token, json: project });
    expect(byRun.status).toBe(403);
    const byFull = await api.call('POST', '/api/projects', { token: full.token, json: project });
    expect(byFull.status).toBe(201);
    // A read token cannot start a run, even of a suite that exists.
    const suite = await api.call('POST', `/api/projects/${byFull.data.id}/suites`, {
      token: full.token,
      json: { name: 'Smoke', test_cases: [{ test_name: 'Home', steps: ['Navigate to /'] }] },
    });
    expect(suite.status).toBe(201);
    const start = await api.call('POST', `/api/projects/${byFull.data.id}/suites/${suite.data.id}/runs`, {
      token: read.token,
      json: {},
    });
    expect(start.status).toBe(403);
    expect(start.data).toEqual({ code: 'TOKEN_SCOPE', detail: 'A read token cannot start or stop work' });
    // Reads work with every scope.
    for (const token of [read, run, full]) {
      expect((await api.call('GET', `/api/projects/${byFull.data.id}`, { token: token.token })).status).toBe(
        200,
      );
    }
    // No token, whatever its scope, manages tokens: a leaked one cannot mint others.
    for (const token of [read, run, full]) {
      const mint = await api.call('POST', '/api/tokens', {
        token: token.token,
        json: { name: 'x', scope: 'full' },
      });
      expect(mint.status).toBe(403);
      expect(mint.data.detail).toBe('API tokens cannot manage API tokens: sign in to Argus to do this');
    }
  });

  it('refuses a revoked token and an expired one, each saying why', async () => {
    const revoked = await create('read');
    const gone = await api.call('DELETE', `/api/tokens/${revoked.id}`, { token: alice.token });
    expect(gone.status).toBe(200);
    expect(gone.data.revoked_at).not.toBeNull();
    const refused = await api.call('GET', '/api/projects', { token: revoked.token });
    expect(refused.status).toBe(401);
    expect(refused.data).toEqual({ code: 'INVALID_TOKEN', detail: 'This API token has been revoked' });

    const expiring = await create('read', { expires_in_days: 1 });
    expect((await api.call('GET', '/api/projects', { token: expiring.token })).status).toBe(200);
    await server.app.services.db.exec(
      `UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = '${expiring.id}'`,
    );
    const expired = await api.call('GET', '/api/projects', { token: expiring.token });
    expect(expired.status).toBe(401);
    expect(expired.data).toEqual({ code: 'INVALID_TOKEN', detail: 'This API token has expired' });

    const unknown = await api.call('GET', '/api/projects', { token: `argus_${'x'.repeat(43)}` });
    expect(unknown.status).toBe(401);
    expect(unknown.data.code).toBe('INVALID_TOKEN');
  });

  it('is not accepted in a URL', async () => {
    const token = await create('full');
    for (const name of ['token', 'access_token']) {
      const res = await fetch(`${server.url}/api/projects?${name}=${token.token}`);
      expect(res.status).toBe(401);
    }
  });

  it('validates what a token is made with', async () => {
    const bad = await api.call('POST', '/api/tokens', {
      token: alice.token,
      json: { name: ' ', scope: 'admin', expires_in_days: 0 },
    });
    expect(bad.status).toBe(422);
    expect(bad.data.code).toBe('VALIDATION');
  });

  it('writes no token to the log', async () => {
    expect(made.length).toBeGreaterThan(5);
    const log = server.output();
    expect(log.length).toBeGreaterThan(0);
    for (const token of made) expect(log).not.toContain(token.slice(10));
  });
});
