import { type Database, repositories, testEngines } from '@argus/db';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditSweeper } from './audit-retention';

const DAY_MS = 24 * 60 * 60 * 1000;
const ORG = '7d0c1c8e-4c39-4d55-9a5e-0a0a0a0a0a01';

describe.each(testEngines())('audit log retention on $name', ({ open }) => {
  let db: Database;
  let drop: () => Promise<void>;
  let repos: ReturnType<typeof repositories>;
  const now = new Date('2026-11-01T12:00:00Z');
  const log = pino({ level: 'silent' });
  const sweeper = (days: number) =>
    new AuditSweeper({
      config: {
        auditRetentionDays: days,
        retentionSweepIntervalMs: 60_000,
        retentionPace: { batchSize: 2, pauseMs: 0, budgetMs: 10_000 },
      },
      repos,
      log,
      now: () => now,
    });
  const ages = async () =>
    (await repos.auditLog.list(ORG, { limit: 100 })).map((row) =>
      Math.round((now.getTime() - row.created_at.getTime()) / DAY_MS),
    );

  beforeAll(async () => {
    ({ db, drop } = await open());
    repos = repositories(db);
    for (const days of [800, 400, 366, 364, 30, 0]) {
      await repos.auditLog.append({
        org_id: ORG,
        actor: null,
        actor_label: 'ci (service token)',
        action: 'token_created',
        created_at: new Date(now.getTime() - days * DAY_MS),
      });
    }
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it('keeps every row when AUDIT_RETENTION_DAYS is 0', async () => {
    expect(await sweeper(0).sweep()).toBeNull();
    expect(await ages()).toEqual([0, 30, 364, 366, 400, 800]);
  });

  it('deletes only the rows older than the window, in small batches', async () => {
    const report = await sweeper(365).sweep();
    expect(report).toMatchObject({
      deleted: 3,
      complete: true,
      cutoff: new Date(now.getTime() - 365 * DAY_MS),
    });
    // Batches of 2: two full ones, then an empty one that says none are left.
    expect(report?.batches).toBe(2);
    expect(await ages()).toEqual([0, 30, 364]);
    expect((await sweeper(365).sweep())?.deleted).toBe(0);
  });

  it('follows its own window: a shorter one removes what it has passed', async () => {
    expect((await sweeper(31).sweep())?.deleted).toBe(1);
    expect(await ages()).toEqual([0, 30]);
  });
});
