import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, migrate, openDatabase, repositories, testEngines, UniqueViolation } from './index';

const engines = testEngines({ fresh: true });
if (engines.length === 1)
  console.log('[db tests] TEST_DATABASE_URL is unset: the PostgreSQL engine tests are skipped.');

describe.each(engines)('database on $name', ({ open }) => {
  let db: Database;
  let drop: () => Promise<void>;
  let repos: ReturnType<typeof repositories>;

  beforeAll(async () => {
    ({ db, drop } = await open());
    repos = repositories(db);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it('applies migrations once and is idempotent on reopen', async () => {
    expect(await migrate(db)).toEqual([]);
  });

  it('refuses a second account whose username or email differs only in case', async () => {
    await repos.users.create({ username: 'Alice', email: 'alice@example.com', password_hash: 'h' });
    await expect(
      repos.users.create({ username: 'alice', email: 'other@example.com', password_hash: 'h' }),
    ).rejects.toMatchObject({ field: 'username' });
    const error = await repos.users
      .create({ username: 'alice2', email: 'ALICE@example.com', password_hash: 'h' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UniqueViolation);
    expect((error as UniqueViolation).field).toBe('email');
  });

  it('finds a user by username or email whatever the case', async () => {
    const byName = await repos.users.findByLogin('ALICE');
    const byEmail = await repos.users.findByLogin('Alice@Example.com');
    expect(byName?.username).toBe('Alice');
    expect(byEmail?.id).toBe(byName?.id);
    expect(await repos.users.findById('not-a-uuid')).toBeUndefined();
  });

  it('scopes sessions to their owner', async () => {
    const alice = (await repos.users.findByLogin('alice'))!;
    const bob = await repos.users.create({ username: 'bob', email: 'bob@example.com', password_hash: 'h' });
    const session = await repos.sessions.create(alice.id, { session_type: 'automation', title: 'Mine' });
    expect(await repos.sessions.get(bob.id, session.id)).toBeUndefined();
    expect(await repos.sessions.update(bob.id, session.id, { title: 'Stolen' })).toBeUndefined();
    expect(await repos.sessions.delete(bob.id, session.id)).toBeUndefined();
    expect((await repos.sessions.get(alice.id, session.id))?.title).toBe('Mine');
    expect(await repos.sessions.list(bob.id, { limit: 10, offset: 0 })).toEqual([]);
  });

  it('stores SQL metacharacters and JSON settings verbatim', async () => {
    const alice = (await repos.users.findByLogin('alice'))!;
    const title = `Robert'); DROP TABLE sessions;-- \\ " $1 %`;
    const settings = { testCases: [{ name: "it's" }], metadata: { nested: { n: 1 } } };
    const session = await repos.sessions.create(alice.id, { session_type: 'automation', title, settings });
    const back = await repos.sessions.get(alice.id, session.id);
    expect(back?.title).toBe(title);
    expect(back?.settings).toEqual(settings);
  });

  it('records a test run: parallel result counts, appended logs, owner-scoped screenshots', async () => {
    const alice = (await repos.users.findByLogin('alice'))!;
    const bob = (await repos.users.findByLogin('bob'))!;
    const run = await repos.testRuns.create(alice.id, {
      url: 'https://example.com',
      status: 'running',
      total_tests: 4,
    });
    await Promise.all(
      [true, true, false, true].map((passed) => repos.testRuns.countResult(alice.id, run.id, passed)),
    );
    await repos.testRuns.appendLog(alice.id, run.id, [
      { timestamp: 't1', level: 'info', message: "it's one" },
    ]);
    await repos.testRuns.appendLog(alice.id, run.id, [{ timestamp: 't2', level: 'error', message: 'two' }]);
    const back = await repos.testRuns.get(alice.id, run.id);
    expect(back).toMatchObject({ passed_tests: 3, failed_tests: 1 });
    expect(back?.execution_log.map((e) => e.message)).toEqual(["it's one", 'two']);
    expect(await repos.testRuns.get(bob.id, run.id)).toBeUndefined();
    await repos.testRuns.countResult(bob.id, run.id, true);
    expect((await repos.testRuns.get(alice.id, run.id))?.passed_tests).toBe(3);

    const shot = await repos.testRuns.addScreenshot(alice.id, {
      test_run_id: run.id,
      test_case_name: 'Login',
      step_name: 'Click "Sign in"',
      step_index: 2,
      sha256: 'a'.repeat(64),
      mime: 'image/jpeg',
      bytes: 10,
      width: 1280,
      height: 800,
      metadata: {},
    });
    expect(await repos.testRuns.screenshot(bob.id, shot.id)).toBeUndefined();
    expect((await repos.testRuns.screenshots(alice.id, [run.id], 'Login')).map((s) => s.id)).toEqual([
      shot.id,
    ]);
    expect(await repos.testRuns.screenshots(bob.id, [run.id])).toEqual([]);
  });

  it('marks runs a stopped process left running as interrupted, keeping what they recorded', async () => {
    const alice = (await repos.users.findByLogin('alice'))!;
    const run = await repos.testRuns.create(alice.id, { url: 'https://example.com', status: 'running' });
    await repos.testRuns.addResult(alice.id, run.id, {
      test_case_id: 'tc-1',
      test_case_name: 'First',
      status: 'passed',
      execution_time: 1.5,
      error_message: null,
      steps: [],
      logs: [],
      screenshots: [],
    });
    expect(await repos.testRuns.markInterrupted()).toBeGreaterThanOrEqual(1);
    expect((await repos.testRuns.get(alice.id, run.id))?.status).toBe('interrupted');
    expect((await repos.testRuns.results(alice.id, run.id)).map((r) => r.test_case_name)).toEqual(['First']);
  });

  it('ends a run with updateIfOpen only while it is pending or running, and only for its owner', async () => {
    const alice = (await repos.users.findByLogin('alice'))!;
    const bob = (await repos.users.findByLogin('bob'))!;
    const open = await repos.testRuns.create(alice.id, { url: 'https://example.com', status: 'running' });
    expect(await repos.testRuns.updateIfOpen(bob.id, open.id, { status: 'error' })).toBeUndefined();
    expect((await repos.testRuns.updateIfOpen(alice.id, open.id, { status: 'error' }))?.status).toBe('error');
    const over = await repos.testRuns.create(alice.id, { url: 'https://example.com', status: 'interrupted' });
    expect(await repos.testRuns.updateIfOpen(alice.id, over.id, { status: 'error' })).toBeUndefined();
    expect((await repos.testRuns.get(alice.id, over.id))?.status).toBe('interrupted');
  });

  it('sums the bytes each user stores, and frees them when a run is deleted (owner only)', async () => {
    const alice = (await repos.users.findByLogin('alice'))!;
    const bob = (await repos.users.findByLogin('bob'))!;
    const before = await repos.testRuns.storedBytes(alice.id);
    const run = await repos.testRuns.create(alice.id, { url: 'https://example.com' });
    const shot = (bytes: number, sha: string) =>
      repos.testRuns.addScreenshot(alice.id, {
        test_run_id: run.id,
        test_case_name: 'Quota',
        step_name: null,
        step_index: 0,
        sha256: sha.repeat(64),
        mime: 'image/png',
        bytes,
        width: null,
        height: null,
        metadata: {},
      });
    await shot(2_000_000_000, 'b');
    await shot(300_000_000, 'c');
    // Past 2^31: the sum is a bigint in SQL and still a plain number here.
    expect(await repos.testRuns.storedBytes(alice.id)).toBe(before + 2_300_000_000);
    expect(await repos.testRuns.storedBytes(bob.id)).toBe(0);
    expect(await repos.testRuns.delete(bob.id, run.id)).toBe(false);
    expect(await repos.testRuns.delete(alice.id, 'not-a-uuid')).toBe(false);
    expect(await repos.testRuns.delete(alice.id, run.id)).toBe(true);
    expect(await repos.testRuns.get(alice.id, run.id)).toBeUndefined();
    expect(await repos.testRuns.storedBytes(alice.id)).toBe(before);
  });

  it("replaces a run's results in one go, touching no other run or owner", async () => {
    const alice = (await repos.users.findByLogin('alice'))!;
    const bob = (await repos.users.findByLogin('bob'))!;
    const result = (name: string) => ({
      test_case_id: null,
      test_case_name: name,
      status: 'passed',
      execution_time: 1,
      error_message: null,
      steps: [],
      logs: [],
      screenshots: [],
    });
    const run = await repos.testRuns.create(alice.id, { url: 'https://example.com' });
    const other = await repos.testRuns.create(alice.id, { url: 'https://example.com' });
    await repos.testRuns.addResult(alice.id, run.id, result('old'));
    await repos.testRuns.addResult(alice.id, other.id, result('kept'));
    expect(await repos.testRuns.replaceResults(bob.id, run.id, [result('intruder')])).toBe(false);
    expect(await repos.testRuns.replaceResults(alice.id, run.id, [result('new 1'), result('new 2')])).toBe(
      true,
    );
    const names = async (id: string) =>
      (await repos.testRuns.results(alice.id, id)).map((r) => r.test_case_name).sort();
    expect(await names(run.id)).toEqual(['new 1', 'new 2']);
    expect(await names(other.id)).toEqual(['kept']);
    const both = await repos.testRuns.results(alice.id, [run.id, other.id]);
    expect(both).toHaveLength(3);
    expect(await repos.testRuns.results(bob.id, run.id)).toEqual([]);
  });
});

describe('the embedded database is held by one process at a time', () => {
  it('refuses a second opener while one holds it, and takes over a lock its holder left behind', async () => {
    const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { createServer } = await import('node:net');
    const { DatabaseInUseError } = await import('./index');
    const root = await mkdtemp(join(tmpdir(), 'argus-lock-'));
    const dir = join(root, 'db');
    try {
      const first = await openDatabase({ pgliteDir: dir });
      await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(DatabaseInUseError);
      await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(/is in use by another process/);
      await first.close();

      // Another process holding it: something listens on the lock.
      const holder = createServer((socket) => socket.end());
      await new Promise<void>((resolve) => holder.listen(`${dir}.lock`, resolve));
      await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(DatabaseInUseError);
      await new Promise<void>((resolve) => holder.close(() => resolve()));

      // A lock file nobody answers on (its process died): taken over.
      await writeFile(`${dir}.lock`, '');
      const again = await openDatabase({ pgliteDir: dir });
      await again.close();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);
});
