/**
 * GET /api/audit and its export (docs/ORGANIZATIONS.md#audit-log): the current organization's rows
 * only, filtered and paged; CSV (with cells a spreadsheet would run defused) and JSON; read only; and
 * a role below admin refused.
 */
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditedOrg } from '../audit/audit-query';
import { AppError } from '../errors';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';

type Signed = { token: string; user: { id: string; username: string } };

describe('the audit log routes', () => {
  let server: InProcessServer;
  let api: ReturnType<typeof client>;
  let alice: Signed;
  let bob: Signed;
  let shop: string;
  const get = (path: string, who: Signed = alice) => api.call('GET', path, { token: who.token });

  beforeAll(async () => {
    server = await startInProcess();
    api = client(server);
    alice = await api.signUp('alice');
    bob = await api.signUp('bob');
    const made = await api.call('POST', '/api/projects', {
      token: alice.token,
      json: {
        name: '=HYPERLINK("http://evil.example")',
        environments: [{ name: 'prod', base_url: 'https://example.com' }],
      },
    });
    shop = made.data.id;
    await api.call('PUT', `/api/projects/${shop}/variables`, {
      token: alice.token,
      json: { name: 'BASE_USER', value: 'qa', secret: false },
    });
    await api.call('POST', '/api/projects', {
      token: bob.token,
      json: { name: 'Bob project', environments: [{ name: 'prod', base_url: 'https://example.com' }] },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers the caller’s organization’s rows, newest first, never another’s', async () => {
    const page = await get('/api/audit');
    expect(page.status).toBe(200);
    expect(page.data.items.map((row: { action: string }) => row.action)).toEqual([
      'variable_set',
      'project_created',
      'sign_in',
    ]);
    expect(page.data.items[0]).toMatchObject({ actor: alice.user.id, project_id: shop, target: 'BASE_USER' });
    expect(page.data.next_cursor).toBeNull();
    const bobs = await get('/api/audit', bob);
    expect(bobs.data.items.map((row: { action: string }) => row.action)).toEqual([
      'project_created',
      'sign_in',
    ]);
    expect(JSON.stringify(bobs.data)).not.toContain(alice.user.id);
    // Alice's filters cannot reach Bob's rows either.
    expect((await get(`/api/audit?actor=${bob.user.id}`)).data.items).toEqual([]);
  });

  it('filters by person, action, project and dates', async () => {
    const actions = async (query: string) =>
      (await get(`/api/audit?${query}`)).data.items.map((row: { action: string }) => row.action);
    expect(await actions(`actor=${alice.user.id}`)).toHaveLength(3);
    expect(await actions('action=sign_in')).toEqual(['sign_in']);
    expect(await actions(`project_id=${shop}`)).toEqual(['variable_set', 'project_created']);
    const today = new Date().toISOString().slice(0, 10);
    expect(await actions(`from=${today}&to=${today}`)).toHaveLength(3);
    expect(await actions('to=2000-01-01')).toEqual([]);
    const bad = await get('/api/audit?action=drop_table');
    expect(bad.status).toBe(422);
  });

  it('pages by cursor and refuses one it never gave', async () => {
    const first = await get('/api/audit?limit=2');
    expect(first.data.items).toHaveLength(2);
    expect(first.data.next_cursor).toEqual(expect.any(String));
    const second = await get(`/api/audit?limit=2&cursor=${first.data.next_cursor}`);
    expect(second.data.items.map((row: { action: string }) => row.action)).toEqual(['sign_in']);
    expect(second.data.next_cursor).toBeNull();
    const forged = await get('/api/audit?cursor=abc');
    expect(forged.status).toBe(422);
    expect(forged.data.code).toBe('VALIDATION');
  });

  it('exports CSV with quoted cells and formulas defused, and records the export', async () => {
    const res = await get(`/api/audit/export?format=csv&project_id=${shop}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(
      /attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = (res.data as string).trimEnd().split('\r\n');
    expect(lines[0]).toBe('created_at,actor,actor_label,action,project_id,target,detail,ip,user_agent,id');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(',variable_set,');
    // The project's name would run as a formula: it starts with ' and its quotes are doubled.
    expect(lines[2]).toContain(`,project_created,${shop},"'=HYPERLINK(""http://evil.example"")",`);
    const after = await get('/api/audit?action=export_downloaded');
    expect(after.data.items[0]).toMatchObject({
      actor: alice.user.id,
      target: 'audit log',
      detail: { kind: 'audit', format: 'csv', project_id: shop },
    });
  });

  it('exports JSON: the rows the list answers, with the same filters', async () => {
    const res = await get('/api/audit/export?format=json&action=sign_in');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.data).toHaveLength(1);
    expect(res.data[0]).toMatchObject({
      action: 'sign_in',
      actor: alice.user.id,
      actor_label: 'alice <alice@example.com>',
    });
    expect(Object.keys(res.data[0])).toEqual([
      'created_at',
      'actor',
      'actor_label',
      'action',
      'project_id',
      'target',
      'detail',
      'ip',
      'user_agent',
      'id',
    ]);
    const empty = await get('/api/audit/export?format=json&to=2000-01-01');
    expect(empty.data).toEqual([]);
  });

  it('has no way to change or remove a row', async () => {
    const [row] = (await get('/api/audit')).data.items;
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
      const res = await api.call(method, `/api/audit/${row.id}`, { token: alice.token, json: {} });
      expect(res.status).toBe(404);
    }
    expect((await get('/api/audit')).data.items[0].id).toBe(row.id);
  });

  it('needs a sign-in', async () => {
    expect((await api.call('GET', '/api/audit')).status).toBe(401);
    expect((await api.call('GET', '/api/audit/export')).status).toBe(401);
  });
});

describe('who may read the audit log', () => {
  const asRole = (role: 'viewer' | 'runner' | 'editor' | 'admin' | 'owner') =>
    ({ org: { id: 'org-1', name: 'Acme', role, personal: false } }) as unknown as FastifyRequest;

  it('admins and owners; a lower role is refused with FORBIDDEN_ROLE naming the role needed', () => {
    expect(auditedOrg(asRole('admin'))).toBe('org-1');
    expect(auditedOrg(asRole('owner'))).toBe('org-1');
    for (const role of ['viewer', 'runner', 'editor'] as const) {
      let refused: unknown;
      try {
        auditedOrg(asRole(role));
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ code: 'FORBIDDEN_ROLE', status: 403 });
      expect((refused as AppError).message).toContain('admin');
    }
  });
});
