/**
 * `npm run seed:history -- --user <username> [--runs 20000] [--days 60] [--seed 1]`: writes a generated
 * history (docs/HISTORY.md#a-generated-history) for an existing user into the server's database, so the
 * History and Analytics screens can be looked at, and timed, with tens of thousands of runs.
 *
 * The database is the server's: DATABASE_URL when set, else the embedded one under DATA_DIR (default
 * ./data), which only one process may hold: stop the server first.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase, repositories, seedHistory } from '@argus/db';

const { values } = parseArgs({
  options: {
    user: { type: 'string' },
    runs: { type: 'string', default: '20000' },
    days: { type: 'string', default: '60' },
    seed: { type: 'string', default: '1' },
  },
});
if (!values.user) {
  console.error('Usage: npm run seed:history -- --user <username> [--runs 20000] [--days 60] [--seed 1]');
  process.exit(2);
}
const db = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  pgliteDir: join(process.env.DATA_DIR ?? 'data', 'db'),
});
try {
  const user = await repositories(db).users.findByLogin(values.user);
  if (!user) {
    console.error(`No user "${values.user}": register one first (or npm run user:add).`);
    process.exitCode = 2;
  } else {
    const report = await seedHistory(db, user.id, {
      runs: Number(values.runs),
      days: Number(values.days),
      seed: Number(values.seed),
    });
    console.log(
      `Seeded ${report.runs} runs (${report.results} case results, ${report.model_calls} model-engine runs), ` +
        `${report.comparisons} design comparisons and ${report.conversations} conversations for ${values.user} ` +
        `in project ${report.project_id}, in ${(report.milliseconds / 1000).toFixed(1)} s.`,
    );
  }
} finally {
  await db.close();
}
