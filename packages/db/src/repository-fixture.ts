import type { Database } from './database';
import { repositories } from './index';
import type { TestEngine } from './testing';

// The set-up every repository test file shared, written once. Test-only: index.ts does not export it.
// It registers no hooks itself (vitest is the tests' dependency, not this package's): a test file
// calls `open` in its beforeAll and `close` in its afterAll.

export interface TwoUsers {
  db: Database;
  repos: ReturnType<typeof repositories>;
  /** Owns what a test writes. */
  alice: string;
  /** Must not reach it. */
  bob: string;
}

/** A repository test file's database on one engine, with two users, alice and bob. */
export function twoUserDatabase(engine: TestEngine['open']): {
  open: () => Promise<TwoUsers>;
  close: () => Promise<void>;
} {
  let opened: Awaited<ReturnType<TestEngine['open']>> | undefined;
  return {
    async open() {
      opened = await engine();
      const repos = repositories(opened.db);
      const alice = (
        await repos.users.create({ username: 'alice', email: 'a@example.com', password_hash: 'h' })
      ).id;
      const bob = (await repos.users.create({ username: 'bob', email: 'b@example.com', password_hash: 'h' }))
        .id;
      return { db: opened.db, repos, alice, bob };
    },
    async close() {
      await opened?.db.close();
      await opened?.drop();
    },
  };
}
