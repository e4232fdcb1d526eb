import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './database';
import { connectionLost, didNotRun, readsOnly } from './retrying-pool';
import { createScratchDatabase, startPostgresCut } from './testing';

const PG_URL = process.env.TEST_DATABASE_URL;

describe('which statements are sent again', () => {
  it('knows a statement that did not run from one that may have', () => {
    expect(didNotRun(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(didNotRun(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true);
    expect(didNotRun(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(didNotRun(new Error('Connection terminated unexpectedly'))).toBe(false);
    const reset = (syscall: string) =>
      Object.assign(new Error('ECONNRESET'), { code: 'ECONNRESET', syscall });
    expect(didNotRun(reset('write'))).toBe(true);
    expect(didNotRun(reset('read'))).toBe(false);
    expect(connectionLost(reset('read'))).toBe(true);
    expect(connectionLost(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(connectionLost(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    expect(connectionLost(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(didNotRun(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });

  it('sends a lost read again, never a lost write', () => {
    expect(readsOnly('select "id" from "users" where "id" = $1')).toBe(true);
    expect(readsOnly('  SHOW server_version')).toBe(true);
    expect(readsOnly('with t as (select 1) select * from t')).toBe(true);
    expect(readsOnly('select * from jobs for update skip locked')).toBe(false);
    expect(readsOnly('with t as (delete from x returning *) select * from t')).toBe(false);
    expect(readsOnly('insert into "test_results" ("id") values ($1)')).toBe(false);
    expect(readsOnly('update "test_runs" set "status" = $1')).toBe(false);
  });
});

describe.skipIf(!PG_URL)('PostgreSQL unreachable for a few seconds', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let relay: Awaited<ReturnType<typeof startPostgresCut>>;
  let db: Database;
  const events: string[] = [];

  beforeAll(async () => {
    scratch = await createScratchDatabase(PG_URL as string, { migrated: false });
    relay = await startPostgresCut(scratch.url);
    db = await openDatabase({
      databaseUrl: relay.proxied,
      retry: {
        retryMs: 15_000,
        onUnreachable: (error) => events.push(`unreachable: ${error.message}`),
        onReachable: () => events.push('reachable'),
      },
    });
    await db.exec('CREATE TABLE marks (id text PRIMARY KEY)');
  });

  afterAll(async () => {
    await db?.close();
    await relay?.close();
    await scratch?.drop();
  });

  const count = async () =>
    Number(((await db.orm.execute(sql`select count(*)::int as n from marks`)).rows[0] as { n: number }).n);

  it('waits out the outage: writes and reads sent during it run once it is back, each once', async () => {
    await db.orm.execute(sql`insert into marks values ('before')`);
    events.length = 0;
    await relay.cut();
    const started = Date.now();
    // drizzle's queries start when awaited: `.then` sends them now.
    const write = db.orm.execute(sql`insert into marks values ('during')`).then((r) => r);
    const read = count();
    const transaction = db.orm.transaction(async (tx) => {
      await tx.execute(sql`insert into marks values ('in a transaction')`);
    });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await relay.restore();
    await Promise.all([write, read, transaction]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(await count()).toBe(3);
    expect(events[0]).toMatch(/^unreachable: /);
    expect(events.at(-1)).toBe('reachable');
  }, 30_000);

  it('sends a read lost in flight again, and fails a write lost in flight rather than risk running it twice', async () => {
    const read = db.orm.execute(sql`select pg_sleep(0.5), 'read' as what`).then((r) => r);
    const write = db.orm
      .execute(sql`insert into marks select 'slow write' from pg_sleep(0.5)`)
      .then((r) => r);
    write.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await relay.cut();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await relay.restore();
    expect(((await read).rows[0] as { what: string }).what).toBe('read');
    const failed = (await write.then(
      () => null,
      (error: Error) => error,
    )) as (Error & { cause?: Error }) | null;
    expect(failed?.cause?.message).toMatch(/Connection terminated unexpectedly|read ECONNRESET/);
    // The server may have run it before it noticed its client gone: once at most, never twice.
    expect([3, 4]).toContain(await count());
  }, 30_000);

  it('fails to open at once when PostgreSQL cannot be reached then', async () => {
    await relay.cut();
    try {
      const started = Date.now();
      const quick = await openDatabase({ databaseUrl: relay.proxied }).catch((error: Error) => error);
      // Opening does not wait: a process starting without its database says so at once.
      expect(quick).toBeInstanceOf(Error);
      expect((quick as Error).message).toMatch(/^Cannot connect to PostgreSQL/);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await relay.restore();
    }
  }, 30_000);
});
