import { type Database, seedHistory } from '@argus/db';
import { RetentionSweeper } from '../retention/retention-sweeper';
import type { InProcessServer } from './in-process-server';

/**
 * For the retention test and benchmark (not the server's): a user's generated history of `runs` runs
 * over `days` days (packages/db/src/history-seed.ts), plus what else points at a run when a team has
 * used it a year: a webhook on the project with one delivery per run, and a schedule per suite naming
 * its latest run. Deleting a run goes through those keys too (0013_cascade_indexes.sql).
 */
export async function seedYear(db: Database, userId: string, { runs, days }: { runs: number; days: number }) {
  const seeded = await seedHistory(db, userId, { runs, days });
  const user = `'${userId}'::uuid`;
  const project = `'${seeded.project_id}'::uuid`;
  await db.exec(`
    INSERT INTO webhooks (id, user_id, project_id, name, url, format, events, secret_enc)
      VALUES (gen_random_uuid(), ${user}, ${project}, 'CI', 'https://hooks.example/ci', 'generic',
        '["always"]', 'seeded');
    INSERT INTO webhook_deliveries (id, webhook_id, user_id, project_id, test_run_id, event, body, status,
        attempts, response_code, delivered_at, created_at, updated_at)
      SELECT gen_random_uuid(), w.id, r.user_id, r.project_id, r.id,
        CASE WHEN r.failed_tests > 0 THEN 'failure' ELSE 'success' END, '{}', 'delivered', 1, 200,
        r.completed_at, r.completed_at, r.completed_at
      FROM test_runs r, webhooks w WHERE r.user_id = ${user} AND w.project_id = ${project};
    INSERT INTO schedules (id, user_id, project_id, suite_id, environment_id, cron, timezone, next_run_at,
        last_run_at, last_run_id, last_outcome)
      SELECT DISTINCT ON (r.suite_id) gen_random_uuid(), r.user_id, r.project_id, r.suite_id,
        r.environment_id, '0 * * * *', 'UTC', now() + interval '1 hour', r.created_at, r.id, 'started'
      FROM test_runs r WHERE r.user_id = ${user} AND r.suite_id IS NOT NULL
      ORDER BY r.suite_id, r.created_at DESC;
  `);
  return seeded;
}

/**
 * A retention sweeper of the server's own configuration, `now` its clock, after stopping the one the
 * server started: that one sweeps a minute after start, which could fall in the middle of a seed.
 */
export async function ownSweeper(server: InProcessServer, now?: () => Date): Promise<RetentionSweeper> {
  const { services } = server.app;
  await services.retention.stop();
  return new RetentionSweeper({ ...services, config: services.config, log: server.app.log, now });
}

/** How many test runs `where` (SQL) picks. */
export async function countRuns(db: Database, where: string): Promise<number> {
  const result = (await db.orm.execute(
    `SELECT count(*)::int AS n FROM test_runs WHERE ${where}`,
  )) as unknown as {
    rows: { n: number }[];
  };
  return result.rows[0].n;
}
