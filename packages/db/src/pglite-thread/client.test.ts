import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatementCancelledError, withStatementScope } from '../statement-scope';
import { migratedPgliteDump } from '../testing';
import { PgliteThreadClient, PgliteThreadDiedError } from './client';

// The embedded database's thread (client.ts, worker.ts) on a real PGlite in a real worker thread.

/** The thread's client on a new directory (from the migrated template: no initdb), with one table. */
async function openOnDirectory(): Promise<{ client: PgliteThreadClient; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'argus-pglite-thread-'));
  const client = await PgliteThreadClient.open({ dir: join(dir, 'db'), dump: await migratedPgliteDump() });
  await client.exec('CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)');
  return { client, dir };
}

const bodies = async (client: PgliteThreadClient) =>
  (await client.query<{ body: string }>('SELECT body FROM notes ORDER BY id')).rows.map((r) => r.body);

// A restart opens PGlite again: seconds on a busy two-core machine.
const RESTART_TIMEOUT = 60_000;

describe('the embedded database in a worker thread', () => {
  let client: PgliteThreadClient;
  let dir: string;

  beforeAll(async () => {
    ({ client, dir } = await openOnDirectory());
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("keeps the main thread's timers ticking and answers a ping while a 3 s statement runs", async () => {
    // An order of events, not durations (a busy machine must not fail it): the ping's answer comes
    // before the statement's, and the main thread's timer fired many times while it ran. A blocked event
    // loop would show the ping after the statement and at most a tick or two. No bench times this.
    const events: string[] = [];
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks++;
    }, 10);
    const started = performance.now();
    let ticksWhileRunning = 0;
    try {
      const ticksBefore = ticks;
      const sleeping = client.query('SELECT pg_sleep(3)').then(() => {
        ticksWhileRunning = ticks - ticksBefore;
        events.push('statement');
      });
      // The health check's question is answered meanwhile, not after it.
      await new Promise((resolve) => setTimeout(resolve, 100));
      await client.ping();
      events.push('ping');
      await sleeping;
    } finally {
      clearInterval(ticker);
    }
    expect(performance.now() - started).toBeGreaterThanOrEqual(2_900);
    expect(events).toEqual(['ping', 'statement']);
    expect(ticksWhileRunning).toBeGreaterThanOrEqual(10);
  }, 20_000);

  it('commits a transaction whose callback resolves and rolls back one that throws', async () => {
    await client.exec('DELETE FROM notes');
    await client.transaction(async (tx) => {
      await tx.query('INSERT INTO notes (body) VALUES ($1)', ['kept']);
    });
    await expect(
      client.transaction(async (tx) => {
        await tx.query('INSERT INTO notes (body) VALUES ($1)', ['dropped']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await bodies(client)).toEqual(['kept']);
  });

  it('makes other statements wait for an open transaction, and nests through savepoints (drizzle)', async () => {
    await client.exec('DELETE FROM notes');
    const db = drizzle({ client: client as unknown as PGlite });
    let outside: Promise<string[]> | undefined;
    await db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO notes (body) VALUES ('outer')`);
      // Sent while the transaction is open: it runs after the commit, so it sees both rows.
      outside = bodies(client);
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`INSERT INTO notes (body) VALUES ('inner')`);
          throw new Error('inner only');
        })
        .catch(() => {});
      await tx.execute(sql`INSERT INTO notes (body) VALUES ('after')`);
    });
    expect(await outside).toEqual(['outer', 'after']);
  });

  it(
    "cancels a running statement past its scope's deadline, answers the next query and keeps committed data",
    async () => {
      await client.exec('DELETE FROM notes');
      await client.query('INSERT INTO notes (body) VALUES ($1)', ['committed before']);
      const started = Date.now();
      const slow = withStatementScope({ deadline: Date.now() + 300, timeoutMs: 300 }, () =>
        client.query('SELECT count(*) FROM generate_series(1, 1000000000)'),
      );
      // Queued behind it, outside any scope: unaffected, it runs on the restarted thread.
      const queued = client.query('INSERT INTO notes (body) VALUES ($1)', ['queued behind']);
      const error = await slow.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StatementCancelledError);
      expect((error as StatementCancelledError).reason).toBe('timeout');
      expect((error as Error).message).toContain('300 ms');
      expect(Date.now() - started).toBeLessThan(3_000);
      await queued;
      expect(await bodies(client)).toEqual(['committed before', 'queued behind']);
    },
    RESTART_TIMEOUT,
  );

  it(
    'cancels a transaction whose statement runs past its deadline: nothing of it is kept',
    async () => {
      await client.exec('DELETE FROM notes');
      const cancelled = withStatementScope({ deadline: Date.now() + 300, timeoutMs: 300 }, () =>
        client.transaction(async (tx) => {
          await tx.query('INSERT INTO notes (body) VALUES ($1)', ['in the cancelled transaction']);
          await tx.query('SELECT count(*) FROM generate_series(1, 1000000000)');
        }),
      );
      await expect(cancelled).rejects.toBeInstanceOf(StatementCancelledError);
      expect(await bodies(client)).toEqual([]);
    },
    RESTART_TIMEOUT,
  );

  it('never runs a queued statement whose signal aborts', async () => {
    await client.exec('DELETE FROM notes');
    const busy = client.query('SELECT pg_sleep(1)');
    const gone = new AbortController();
    const queued = withStatementScope({ signal: gone.signal }, () =>
      client.query('INSERT INTO notes (body) VALUES ($1)', ['never']),
    );
    gone.abort();
    const error = await queued.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StatementCancelledError);
    expect((error as StatementCancelledError).reason).toBe('aborted');
    await busy;
    expect(await bodies(client)).toEqual([]);
  });

  it('refuses at once a statement whose deadline has already passed', async () => {
    const late = withStatementScope({ deadline: Date.now() - 1, timeoutMs: 50 }, () =>
      client.query('SELECT 1'),
    );
    await expect(late).rejects.toBeInstanceOf(StatementCancelledError);
  });

  it("carries PostgreSQL's error fields across (a unique violation's code and constraint)", async () => {
    await client.exec('CREATE TABLE IF NOT EXISTS uniques (name text CONSTRAINT uniques_name UNIQUE)');
    await client.query("INSERT INTO uniques VALUES ('a')");
    const error = (await client.query("INSERT INTO uniques VALUES ('a')").catch((e: unknown) => e)) as {
      code?: string;
      constraint?: string;
    };
    expect(error).toMatchObject({ code: '23505', constraint: 'uniques_name' });
  });

  it(
    'fails what waited on a thread that died on its own with a clear error, and opens a new one for the next statement',
    async () => {
      await client.exec('DELETE FROM notes');
      await client.query('INSERT INTO notes (body) VALUES ($1)', ['committed before']);
      // The thread as the client sends to it (its handle is private): ended here, as a crash ends it.
      const send = Worker.prototype.postMessage;
      let thread: Worker | undefined;
      Worker.prototype.postMessage = function (this: Worker, ...args: Parameters<Worker['postMessage']>) {
        thread = this;
        return send.apply(this, args);
      };
      let running: Promise<unknown>;
      let waiting: Promise<unknown>;
      try {
        running = client.query('SELECT pg_sleep(2)');
        waiting = client.query('SELECT 1');
      } finally {
        Worker.prototype.postMessage = send;
      }
      expect(thread).toBeDefined();
      await thread?.terminate();
      for (const pending of [running, waiting]) {
        const error = await pending.catch((e: unknown) => e);
        expect(error).toBeInstanceOf(PgliteThreadDiedError);
        expect((error as Error).message).toMatch(
          /stopped unexpectedly .*the next one opens the database again/,
        );
      }
      expect(await bodies(client)).toEqual(['committed before']);
    },
    RESTART_TIMEOUT,
  );

  it(
    'closes after a transaction in progress has ended, refusing new statements meanwhile',
    async () => {
      const { client: closing, dir: closingDir } = await openOnDirectory();
      try {
        let closed: Promise<void> | undefined;
        await closing.transaction(async (tx) => {
          await tx.query('INSERT INTO notes (body) VALUES ($1)', ['before the close']);
          closed = closing.close();
          await expect(closing.query('SELECT 1')).rejects.toThrow('closed');
          await tx.query('INSERT INTO notes (body) VALUES ($1)', ['after the close was asked']);
        });
        await closed;
        const again = await PgliteThreadClient.open({ dir: join(closingDir, 'db') });
        expect(await bodies(again)).toEqual(['before the close', 'after the close was asked']);
        await again.close();
      } finally {
        await closing.close();
        await rm(closingDir, { recursive: true, force: true });
      }
    },
    RESTART_TIMEOUT,
  );

  it(
    'dumps the data directory as a tar that opens again',
    async () => {
      await client.exec('DELETE FROM notes');
      await client.query('INSERT INTO notes (body) VALUES ($1)', ['in the dump']);
      const copy = await PgliteThreadClient.open({ dump: await client.dump() });
      try {
        expect(await bodies(copy)).toEqual(['in the dump']);
      } finally {
        await copy.close();
      }
    },
    RESTART_TIMEOUT,
  );
});

describe('results through the thread', () => {
  let thread: PgliteThreadClient;
  let inThread: PGlite;

  beforeAll(async () => {
    const dump = await migratedPgliteDump();
    [thread, inThread] = await Promise.all([
      PgliteThreadClient.open({ dump }),
      PGlite.create({ loadDataDir: dump }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await thread?.close();
    await inThread?.close();
  });

  it('are the ones in-thread PGlite gives, for timestamptz, date, jsonb, bytea, numeric and arrays', async () => {
    const row = sql`SELECT '2026-03-01 12:34:56.789+00'::timestamptz AS at, '2026-03-01'::date AS day,
      '1 day 02:00'::interval AS span, '{"a": [1, "b", null], "n": 1.5}'::jsonb AS doc,
      '\\x00ff10'::bytea AS bytes, 12345.6789::numeric AS amount, 9007199254740993::int8 AS big,
      ARRAY[1, 2, 3] AS ints, ARRAY['x', NULL]::text[] AS texts,
      ARRAY['2026-03-01'::date] AS days, ARRAY['2026-03-01 00:00+00'::timestamptz] AS ats,
      ARRAY[1.5, 2]::numeric[] AS amounts, true AS yes, NULL::text AS nothing, 42 AS n, 0.5::float8 AS f`;
    const viaThread = drizzle({ client: thread as unknown as PGlite });
    const direct = drizzle({ client: inThread });
    // Drizzle's raw form (object rows) and its select form (array rows, mapped onto fields).
    expect(await viaThread.execute(row)).toStrictEqual(await direct.execute(row));
    const select = (db: typeof direct) =>
      db
        .select({ at: sql<string>`'2026-03-01 12:34:56+00'::timestamptz`, doc: sql`'{"k":1}'::jsonb` })
        .from(sql`(SELECT 1) AS one`);
    expect(await select(viaThread)).toStrictEqual(await select(direct));
    // And PGlite's own parsers where drizzle passes none.
    const raw = 'SELECT now()::date = $1::date AS same, $2::jsonb AS doc, $3::bytea AS bytes';
    const params = [new Date().toISOString(), JSON.stringify({ a: 1 }), new Uint8Array([1, 2])];
    const dropTimes = { parsers: { [types.TIMESTAMPTZ]: (v: string) => v } };
    expect(await thread.query(raw, params, dropTimes)).toStrictEqual(
      await inThread.query(raw, params, dropTimes),
    );
  });

  it('refuses a parser that is not an identity, which could not run in the thread', async () => {
    await expect(
      thread.query('SELECT 1', [], { parsers: { 23: (v: string) => Number(v) * 2 } }),
    ).rejects.toThrow(/identity parsers/);
  });
});
