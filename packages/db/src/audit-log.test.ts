import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewAuditEntry } from './audit-log';
import { type Database, testEngines } from './index';
import { type TwoUsers, twoUserDatabase } from './repository-fixture';

describe.each(testEngines())('the audit log on $name', ({ open }) => {
  let db: Database;
  let repos: TwoUsers['repos'];
  // Each user's personal organization shares their id.
  let alice: string;
  let bob: string;
  const project = randomUUID();
  const fixture = twoUserDatabase(open);
  const at = (iso: string) => new Date(iso);
  const entry = (over: Partial<NewAuditEntry>): NewAuditEntry => ({
    org_id: alice,
    actor: alice,
    actor_label: 'alice <a@example.com>',
    action: 'suite_saved',
    ...over,
  });

  beforeAll(async () => {
    ({ db, repos, alice, bob } = await fixture.open());
    const log = repos.auditLog;
    await log.append(entry({ action: 'sign_in', created_at: at('2026-01-01T08:00:00Z'), ip: '10.0.0.1' }));
    await log.append(
      entry({
        action: 'secret_set',
        project_id: project,
        target: 'API_KEY',
        created_at: at('2026-01-02T08:00:00Z'),
      }),
    );
    await log.append(
      entry({
        action: 'suite_saved',
        project_id: project,
        target: 'Checkout',
        detail: { version: 2 },
        created_at: at('2026-01-03T08:00:00Z'),
      }),
    );
    await log.append(
      entry({
        action: 'token_created',
        actor: bob,
        actor_label: 'bob',
        target: 'ci',
        created_at: at('2026-01-04T08:00:00Z'),
      }),
    );
    await log.append(
      entry({
        action: 'suite_deleted',
        project_id: project,
        target: 'Old',
        created_at: at('2026-01-05T08:00:00Z'),
      }),
    );
    // Bob's own organization.
    await log.append(
      entry({
        org_id: bob,
        actor: bob,
        actor_label: 'bob',
        action: 'sign_in',
        created_at: at('2026-01-03T09:00:00Z'),
      }),
    );
  }, 60_000);
  afterAll(fixture.close);

  const actions = (rows: { action: string }[]) => rows.map((row) => row.action);

  it('lists one organization, newest first, never another organization rows', async () => {
    const rows = await repos.auditLog.list(alice, { limit: 50 });
    expect(actions(rows)).toEqual(['suite_deleted', 'token_created', 'suite_saved', 'secret_set', 'sign_in']);
    expect(rows[2]).toMatchObject({
      org_id: alice,
      project_id: project,
      target: 'Checkout',
      detail: { version: 2 },
    });
    expect(rows[4]).toMatchObject({ ip: '10.0.0.1', user_agent: null, actor_label: 'alice <a@example.com>' });
    expect(actions(await repos.auditLog.list(bob, { limit: 50 }))).toEqual(['sign_in']);
  });

  it('filters by person, action, project and a date range (from inclusive, to exclusive)', async () => {
    const log = repos.auditLog;
    expect(actions(await log.list(alice, { actor: bob, limit: 50 }))).toEqual(['token_created']);
    expect(actions(await log.list(alice, { action: 'secret_set', limit: 50 }))).toEqual(['secret_set']);
    expect(actions(await log.list(alice, { project_id: project, limit: 50 }))).toEqual([
      'suite_deleted',
      'suite_saved',
      'secret_set',
    ]);
    const range = { from: at('2026-01-02T08:00:00Z'), to: at('2026-01-04T08:00:00Z'), limit: 50 };
    expect(actions(await log.list(alice, range))).toEqual(['suite_saved', 'secret_set']);
    // An id that is no uuid matches nothing rather than failing.
    expect(await log.list(alice, { actor: 'nobody', limit: 50 })).toEqual([]);
    expect(await log.list('not-an-org', { limit: 50 })).toEqual([]);
  });

  it('pages by keyset: each page starts after the last row of the one before', async () => {
    const log = repos.auditLog;
    const first = await log.list(alice, { limit: 2 });
    const second = await log.list(alice, { limit: 2, before: first[1].id });
    const third = await log.list(alice, { limit: 2, before: second[1].id });
    expect([first, second, third].map(actions)).toEqual([
      ['suite_deleted', 'token_created'],
      ['suite_saved', 'secret_set'],
      ['sign_in'],
    ]);
  });

  it('streams every row the filters pick, a batch at a time', async () => {
    const batches: string[][] = [];
    for await (const rows of repos.auditLog.stream(alice, {}, 2)) batches.push(actions(rows));
    expect(batches).toEqual([['suite_deleted', 'token_created'], ['suite_saved', 'secret_set'], ['sign_in']]);
    const filtered: string[] = [];
    for await (const rows of repos.auditLog.stream(alice, { project_id: project }, 2))
      filtered.push(...actions(rows));
    expect(filtered).toEqual(['suite_deleted', 'suite_saved', 'secret_set']);
  });

  it('refuses an UPDATE, a DELETE and a TRUNCATE through SQL', async () => {
    await expect(
      db.exec(`UPDATE audit_log SET action = 'sign_in' WHERE org_id = '${alice}'`),
    ).rejects.toThrow(/cannot be changed/);
    await expect(db.exec(`DELETE FROM audit_log WHERE org_id = '${alice}'`)).rejects.toThrow(
      /retention only/,
    );
    await expect(db.exec('TRUNCATE audit_log')).rejects.toThrow(/cannot be changed/);
    expect(await repos.auditLog.list(alice, { limit: 50 })).toHaveLength(5);
    // The repository offers no way to change or remove a chosen row.
    expect(Object.keys(repos.auditLog).sort()).toEqual(['append', 'deleteOlderThan', 'list', 'stream']);
  });

  it('retention deletes only rows older than the cutoff, in batches', async () => {
    const other = randomUUID();
    const log = repos.auditLog;
    for (const day of ['01', '02', '03', '20']) {
      await log.append(
        entry({ org_id: other, action: 'sign_in', created_at: at(`2025-06-${day}T00:00:00Z`) }),
      );
    }
    const cutoff = at('2025-06-10T00:00:00Z');
    expect(await log.deleteOlderThan(cutoff, 2)).toBe(2);
    expect(await log.deleteOlderThan(cutoff, 2)).toBe(1);
    expect(await log.deleteOlderThan(cutoff, 2)).toBe(0);
    const left = await log.list(other, { limit: 50 });
    expect(left.map((row) => row.created_at.toISOString())).toEqual(['2025-06-20T00:00:00.000Z']);
    // Newer rows of other organizations stay.
    expect(await log.list(alice, { limit: 50 })).toHaveLength(5);
  });
});
