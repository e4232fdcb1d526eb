import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './database';
import { connectionLost, didNotRun, readsOnly } from './retrying-pool';
import { StatementCancelledError, withStatementScope } from './statement-scope';
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

describe.skipIf(!PG_URL)('statements in a statement scope (a request) on PostgreSQL', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let db: Database;
  let watcher: Database;

  beforeAll(async () => {
    scratch = await createScratchDatabase(PG_URL as string, { migrated: false });
    db = await openDatabase({ databaseUrl: scratch.url });
    watcher = await openDatabase({ databaseUrl: scratch.url });
    await db.exec('CREATE TABLE marks (id text PRIMARY KEY)');
  });

  afterAll(async () => {
    await db?.close();
    await watcher?.close();
    await scratch?.drop();
  });

  /** Statements of this test's database still running that contain `marker` (other than this one). */
  const running = async (marker: string) => {
    const { rows } = await watcher.orm.execute(
      sql`select query from pg_stat_activity where datname = current_database() and state = 'active' and pid <> pg_backend_pid() and query like ${`%${marker}%`}`,
    );
    return rows.length;
  };
  const failure = (work: Promise<unknown>) =>
    work.then(
      () => null,
      (error: Error & { cause?: unknown }) =>
        error instanceof StatementCancelledError ? error : error.cause,
    ) as Promise<StatementCancelledError | null>;
  const settings = async (n: number) => {
    const { rows } = await Promise.all(
      Array.from({ length: n }, () =>
        db.orm.execute(sql`select current_setting('statement_timeout') as limit, pg_sleep(0.05)`),
      ),
    ).then((all) => ({ rows: all.flatMap((r) => r.rows as { limit: string }[]) }));
    return new Set(rows.map((r) => r.limit));
  };

  it('cancels a statement at its deadline, names the limit, and leaves nothing running', async () => {
    const started = Date.now();
    const cancelled = await failure(
      withStatementScope({ deadline: Date.now() + 300, timeoutMs: 300 }, () =>
        db.orm.execute(sql`select pg_sleep(5), 'deadline-marker'`).then((r) => r),
      ),
    );
    expect(cancelled).toBeInstanceOf(StatementCancelledError);
    expect(cancelled?.reason).toBe('timeout');
    expect(cancelled?.message).toContain('300 ms');
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(await running('deadline-marker')).toBe(0);
    // The connection went back with the session's own limit (the backstop), not the request's.
    expect(await settings(12)).toEqual(new Set(['10min']));
  });

  it("cancels a running statement when the scope's signal aborts, and only that statement", async () => {
    const controller = new AbortController();
    const work = withStatementScope({ signal: controller.signal }, () =>
      db.orm.execute(sql`select pg_sleep(5), 'abort-marker'`).then((r) => r),
    );
    const cancelled = failure(work);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await running('abort-marker')).toBe(1);
    const aborted = Date.now();
    // Others' statements start on the pool meanwhile: none may be hit by the cancel.
    const others = Promise.all(
      Array.from({ length: 12 }, () => db.orm.execute(sql`select pg_sleep(0.1), 'other-marker'`)),
    );
    controller.abort();
    expect((await cancelled)?.reason).toBe('aborted');
    expect(Date.now() - aborted).toBeLessThan(1_000);
    expect(await running('abort-marker')).toBe(0);
    await others;
  });

  it('refuses a statement whose scope has passed without sending it', async () => {
    const controller = new AbortController();
    controller.abort();
    expect((await failure(withStatementScope({ signal: controller.signal }, () => count())))?.reason).toBe(
      'aborted',
    );
    expect(
      (await failure(withStatementScope({ deadline: Date.now() - 1, timeoutMs: 5 }, () => count())))?.reason,
    ).toBe('timeout');
  });

  it("holds a transaction to its scope's deadline across its statements, and rolls it back", async () => {
    const started = Date.now();
    const cancelled = await failure(
      withStatementScope({ deadline: Date.now() + 600, timeoutMs: 600 }, () =>
        db.orm.transaction(async (tx) => {
          await tx.execute(sql`insert into marks values ('in a cancelled transaction')`);
          // Most of the time goes here, so the next statement starts with little of it left.
          await new Promise((resolve) => setTimeout(resolve, 450));
          await tx.execute(sql`select pg_sleep(5), 'transaction-marker'`);
        }),
      ),
    );
    expect(cancelled?.reason).toBe('timeout');
    // Cancelled at the deadline (600 ms), not 600 ms after the slow statement began.
    expect(Date.now() - started).toBeLessThan(950);
    expect(await running('transaction-marker')).toBe(0);
    expect(await count()).toBe(0);
  });

  it('stops waiting for a connection of a full pool at the deadline', async () => {
    // Every connection of the pool (10) busy for a second, outside any scope.
    const busy = Promise.all(Array.from({ length: 10 }, () => db.orm.execute(sql`select pg_sleep(1)`)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const cancelled = await failure(
      withStatementScope({ deadline: Date.now() + 200, timeoutMs: 200 }, () => count()),
    );
    expect(cancelled?.reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(600);
    await busy;
  });

  it('leaves work outside any scope unlimited by requests', async () => {
    const { rows } = await db.orm.execute(sql`select pg_sleep(0.6), 'unscoped' as what`);
    expect((rows[0] as { what: string }).what).toBe('unscoped');
  });

  const count = async () =>
    Number(((await db.orm.execute(sql`select count(*)::int as n from marks`)).rows[0] as { n: number }).n);
});
