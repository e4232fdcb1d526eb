import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, openMigratedPglite, seedPgliteDir } from '@argus/db';
import { REPO_ROOT } from './spawn-server';

/**
 * Vitest global set-up of the projects that start servers (vitest.config.ts): once, before any test
 * file, the server bundle that `spawnServer` runs is brought up to date (a no-op when its sources did
 * not change: scripts/build-once.mjs), and the migrated template databases are made, so parallel
 * test files find them ready instead of racing to make them (docs/TESTING.md).
 */
export default async function setup(): Promise<void> {
  execFileSync(process.execPath, [join(REPO_ROOT, 'scripts/build-server.mjs')], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  await (await openMigratedPglite()).close();
  const scratch = await mkdtemp(join(tmpdir(), 'argus-template-check-'));
  await seedPgliteDir(join(scratch, 'db'));
  await rm(scratch, { recursive: true, force: true });
  if (process.env.TEST_DATABASE_URL) {
    const db = await createScratchDatabase(process.env.TEST_DATABASE_URL);
    await db.drop();
  }
}
