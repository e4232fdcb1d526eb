import { afterAll, beforeAll } from 'vitest';
import type { Database } from './database';
import { repositories } from './index';
import type { TestEngine } from './testing';

// The set-up every repository test file shared, written once. Test-only: index.ts does not export it,
// so no server code pulls vitest in.

export interface TwoUsers {
  db: Database;
  repos: ReturnType<typeof repositories>;
  /** Owns what a test writes. */
  alice: string;
  /** Must not reach it. */
  bob: string;
}

/**
 * A repository test file's database on one engine with two users, alice and bob: opened before the
 * file's tests (`use` receives them), closed and dropped after them.
 */
export function withTwoUsers(open: TestEngine['open'], use: (fixture: TwoUsers) => void): void {
  let opened: Awaited<ReturnType<TestEngine['open']>> | undefined;
  beforeAll(async () => {
    opened = await open();
    const repos = repositories(opened.db);
    const alice = (
      await repos.users.create({ username: 'alice', email: 'a@example.com', password_hash: 'h' })
    ).id;
    const bob = (await repos.users.create({ username: 'bob', email: 'b@example.com', password_hash: 'h' }))
      .id;
    use({ db: opened.db, repos, alice, bob });
  }, 60_000);
  afterAll(async () => {
    await opened?.db.close();
    await opened?.drop();
  });
}
