/**
 * The audit recorder (docs/ORGANIZATIONS.md#audit-log), through the real routes: what a sign-in, a
 * failed one, a token's creation and a secret's setting write, with the request's address and browser,
 * and never a secret's value or a token's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';

describe('the audit recorder', () => {
  let server: InProcessServer;
  let api: ReturnType<typeof client>;
  let alice: { token: string; user: { id: string; username: string } };
  const agent = { 'user-agent': 'AuditTest/1.0' };

  /** Every row of the log (every organization's, and none's), oldest first. */
  const rows = async () =>
    (
      (await server.app.services.db.orm.execute('SELECT * FROM audit_log ORDER BY id')) as unknown as {
        rows: Record<string, unknown>[];
      }
    ).rows;

  beforeAll(async () => {
    server = await startInProcess();
    api = client(server);
    alice = await api.signUp('alice');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('records a sign-in in the person’s own organization, with the address and browser', async () => {
    const res = await api.call('POST', '/api/auth/login', {
      body: new URLSearchParams({ username: 'alice', password: 'Passw0rd1' }),
      headers: agent,
    });
    expect(res.status).toBe(200);
    const row = (await rows()).at(-1);
    expect(row).toMatchObject({
      org_id: alice.user.id,
      actor: alice.user.id,
      actor_label: 'alice <alice@example.com>',
      action: 'sign_in',
      ip: '127.0.0.1',
      user_agent: 'AuditTest/1.0',
      project_id: null,
    });
  });

  it('records a failed sign-in: a known person in their organization, an unknown name in none', async () => {
    const wrong = await api.call('POST', '/api/auth/login', {
      body: new URLSearchParams({ username: 'alice', password: 'not-her-password' }),
    });
    expect(wrong.status).toBe(401);
    const ghost = await api.call('POST', '/api/auth/login', {
      body: new URLSearchParams({ username: 'ghost', password: 'whatever1' }),
    });
    expect(ghost.status).toBe(401);
    const [known, unknown] = (await rows()).slice(-2);
    expect(known).toMatchObject({ org_id: alice.user.id, actor: alice.user.id, action: 'sign_in_failed' });
    expect(unknown).toMatchObject({
      org_id: null,
      actor: null,
      actor_label: 'ghost',
      action: 'sign_in_failed',
    });
    // Neither password is kept.
    expect(JSON.stringify(await rows())).not.toMatch(/not-her-password|whatever1/);
  });

  it('records a token’s creation and revocation by name, never its value', async () => {
    const made = await api.call('POST', '/api/tokens', {
      token: alice.token,
      json: { name: 'ci pipeline', scope: 'run' },
    });
    expect(made.status).toBe(201);
    const revoked = await api.call('DELETE', `/api/tokens/${made.data.id}`, { token: alice.token });
    expect(revoked.status).toBe(200);
    const [created, gone] = (await rows()).slice(-2);
    expect(created).toMatchObject({
      org_id: alice.user.id,
      actor: alice.user.id,
      action: 'token_created',
      target: 'ci pipeline',
      detail: { token_id: made.data.id, scope: 'run' },
    });
    expect(gone).toMatchObject({ action: 'token_revoked', target: 'ci pipeline' });
    expect(JSON.stringify(await rows())).not.toContain(made.data.token);
  });

  it('records a secret set and deleted by its name only: its value appears nowhere in the row', async () => {
    const project = await api.call('POST', '/api/projects', {
      token: alice.token,
      json: { name: 'Shop', environments: [{ name: 'staging', base_url: 'https://staging.example.com' }] },
    });
    expect(project.status).toBe(201);
    const value = 'hunter2-very-secret-value';
    const set = await api.call('PUT', `/api/projects/${project.data.id}/variables`, {
      token: alice.token,
      json: { name: 'PAYMENT_KEY', value, secret: true },
    });
    expect(set.status).toBe(200);
    const row = (await rows()).at(-1);
    expect(row).toMatchObject({
      org_id: alice.user.id,
      actor: alice.user.id,
      action: 'secret_set',
      project_id: project.data.id,
      target: 'PAYMENT_KEY',
    });
    expect(JSON.stringify(await rows())).not.toContain(value);
    const deleted = await api.call('DELETE', `/api/projects/${project.data.id}/variables/${set.data.id}`, {
      token: alice.token,
    });
    expect(deleted.status).toBe(204);
    expect((await rows()).at(-1)).toMatchObject({ action: 'secret_deleted', target: 'PAYMENT_KEY' });
  });

  it('marks what was done with an API token with the token’s id', async () => {
    const made = await api.call('POST', '/api/tokens', {
      token: alice.token,
      json: { name: 'full one', scope: 'full' },
    });
    const project = await api.call('POST', '/api/projects', {
      token: made.data.token,
      json: { name: 'Via token', environments: [{ name: 'prod', base_url: 'https://example.com' }] },
    });
    expect(project.status).toBe(201);
    expect((await rows()).at(-1)).toMatchObject({
      action: 'project_created',
      target: 'Via token',
      detail: { api_token: made.data.id },
    });
  });
});
