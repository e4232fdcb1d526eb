/**
 * `npm run analytics:rebuild [-- --user <username>]`: makes every analytics rollup (docs/HISTORY.md#rollups)
 * again from the runs and results: the finished runs' table and the day summaries of every day since a
 * user's first run. For a history written before the rollups existed, or loaded by hand; queries are
 * right without it (a day with no summary is made at its first query), only slower the first time.
 *
 * The database is the server's: DATABASE_URL when set, else the embedded one under DATA_DIR (default
 * ./data), which only one process may hold: stop the server first. On PostgreSQL the server may run
 * meanwhile: each batch of days holds the user's analytics lock for a moment only.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase, repositories } from '@argus/db';

const { values } = parseArgs({ options: { user: { type: 'string' } } });
const db = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  pgliteDir: join(process.env.DATA_DIR ?? 'data', 'db'),
});
try {
  const repos = repositories(db);
  const user = values.user ? await repos.users.findByLogin(values.user) : undefined;
  if (values.user && !user) {
    console.error(`No user "${values.user}".`);
    process.exitCode = 2;
  } else {
    const report = await repos.analytics.rebuild(user?.id, (message) => console.log(message));
    console.log(
      `Rebuilt the analytics rollups of ${report.users} user(s): ${report.runs} finished runs, ` +
        `${report.days} days summarised, in ${(report.milliseconds / 1000).toFixed(1)} s.`,
    );
  }
} finally {
  await db.close();
}
