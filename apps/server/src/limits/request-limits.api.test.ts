/**
 * The limits of long statements over HTTP on PostgreSQL (docs/HISTORY.md#limits): a read whose
 * database work outlasts DATABASE_STATEMENT_TIMEOUT_MS is answered STATEMENT_TIMEOUT naming the limit
 * and its statement is gone from PostgreSQL; a request whose client goes away leaves no statement
 * running; a user's third heavy request at once is refused while another user is served. Statements
 * are made slow on purpose by another connection holding a table locked. Needs TEST_DATABASE_URL.
 */
import { createScratchDatabase, type Database, openDatabase } from '@argus/db';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';

const PG_URL = process.env.TEST_DATABASE_URL;
const LIMIT_MS = 3_000;

/** Polls `check` until it holds, for up to `ms`. */
async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

describe.skipIf(!PG_URL)('long statements have limits, on PostgreSQL over HTTP', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let server: InProcessServer;
  let api: ReturnType<typeof client>;
  /** Connections of the test's own, beside the server's: one watches, one holds locks. */
  let side: Database;
  let locked: { pid: number; release: () => void; done: Promise<unknown> } | undefined;
  let alice: { token: string };
  let bob: { token: string };
  let exportPath: string;

  beforeAll(async () => {
    scratch = await createScratchDatabase(PG_URL as string);
    server = await startInProcess({
      DATABASE_URL: scratch.url,
      DATABASE_STATEMENT_TIMEOUT_MS: String(LIMIT_MS),
      HEAVY_REQUESTS_PER_USER: '2',
    });
    // Over HTTP (not inject): a client that goes away is a socket closing.
    api = client(server.url);
    side = await openDatabase({ databaseUrl: scratch.url });
    alice = await api.signUp('alice');
    bob = await api.signUp('bob');
    const project = await api.call('POST', '/api/projects', {
      token: alice.token,
      json: { name: 'Shop', environments: [{ name: 'staging', base_url: 'https://shop.test/' }] },
    });
    const suite = await api.call('POST', `/api/projects/${project.data.id}/suites`, {
      token: alice.token,
      json: { name: 'Smoke', test_cases: [{ test_name: 'Home', steps: ['Navigate to /'] }] },
    });
    expect(suite.status).toBe(201);
    exportPath = `/api/projects/${project.data.id}/suites/${suite.data.id}/export`;
  }, 60_000);

  afterEach(async () => {
    await unlock();
  });

  afterAll(async () => {
    await side?.close();
    await server?.stop();
    await scratch?.drop();
  });

  /** Another connection holds `table` locked against every reader until `unlock`. */
  async function lock(table: string) {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding = (_pid: number) => {};
    const pid = new Promise<number>((resolve) => {
      holding = resolve;
    });
    const done = side.orm.transaction(async (tx) => {
      await tx.execute(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
      const { rows } = await tx.execute<{ pid: number }>('select pg_backend_pid() as pid');
      holding(rows[0].pid);
      await released;
    });
    // A transaction that failed before holding the lock fails the test here.
    locked = { pid: await Promise.race([pid, done.then(() => 0)]), release, done };
  }
  async function unlock() {
    const held = locked;
    locked = undefined;
    if (!held) return;
    held.release();
    await held.done;
  }

  /** The server's statements running in PostgreSQL now (not the test's own). */
  async function running(): Promise<string[]> {
    const { rows } = await side.orm.execute<{ query: string }>(
      `select query from pg_stat_activity
        where datname = current_database() and state = 'active' and pid <> pg_backend_pid()
          and pid <> ${locked?.pid ?? 0}`,
    );
    return rows.map((row) => row.query);
  }

  const get = (path: string, token: string) => api.call('GET', path, { token });

  it('answers a read slower than the limit with STATEMENT_TIMEOUT naming it, its statement gone, and serves the same user next', async () => {
    await lock('test_runs');
    const started = Date.now();
    const slow = await get('/api/history', alice.token);
    const took = Date.now() - started;
    const left = await running();
    expect(slow.status).toBe(503);
    expect(slow.data.code).toBe('STATEMENT_TIMEOUT');
    expect(slow.data.detail).toContain(`${LIMIT_MS} ms`);
    expect(slow.data.detail).toContain('DATABASE_STATEMENT_TIMEOUT_MS');
    expect(slow.data.detail).toContain('nothing was changed');
    expect(took).toBeGreaterThanOrEqual(LIMIT_MS - 100);
    expect(took).toBeLessThan(LIMIT_MS + 1_500);
    // Right after the answer, PostgreSQL runs nothing of it any more.
    expect(left).toEqual([]);
    await unlock();
    const next = await get('/api/history', alice.token);
    expect(next.status).toBe(200);
    expect(next.data.items).toEqual([]);
  }, 20_000);

  it('cancels the statement of a request whose client goes away, long before the limit', async () => {
    await lock('test_runs');
    const gone = new AbortController();
    const started = Date.now();
    const request = fetch(`${server.url}/api/history`, {
      headers: { authorization: `Bearer ${alice.token}` },
      signal: gone.signal,
    }).catch((error: Error) => error);
    // Its statement waits behind the lock in PostgreSQL.
    expect(await until(async () => (await running()).length === 1, 2_000)).toBe(true);
    gone.abort();
    expect(await request).toBeInstanceOf(Error);
    const aborted = Date.now();
    expect(await until(async () => (await running()).length === 0, 1_500)).toBe(true);
    expect(Date.now() - aborted).toBeLessThan(1_000);
    expect(Date.now() - started).toBeLessThan(LIMIT_MS);
    await unlock();
    expect((await get('/api/history', alice.token)).status).toBe(200);
  }, 20_000);

  it("refuses a user's third heavy request at once with 429 and Retry-After, while another user is served", async () => {
    // Exports read the project's variables: two of alice's wait there while the table is locked.
    await lock('project_variables');
    const first = get(exportPath, alice.token);
    const second = get(exportPath, alice.token);
    expect(await until(async () => (await running()).length === 2, 2_000)).toBe(true);
    const third = await get(exportPath, alice.token);
    expect(third.status).toBe(429);
    expect(third.data.code).toBe('TOO_MANY_HEAVY_REQUESTS');
    expect(third.data.detail).toContain('HEAVY_REQUESTS_PER_USER');
    const retryAfter = Number(third.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(LIMIT_MS / 1000);
    // Analytics is heavy too: bob's is served while alice's two still wait.
    const bobs = await get('/api/analytics', bob.token);
    expect(bobs.status).toBe(200);
    await unlock();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    // Her slots are given back once answered.
    expect((await get(exportPath, alice.token)).status).toBe(200);
  }, 20_000);
});
