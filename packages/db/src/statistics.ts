import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { Database } from './database';

/**
 * Gathers the planner's statistics one table at a time, the largest first, with a pause between
 * (the embedded database has no autovacuum; docs/PERFORMANCE.md#history-and-analytics). One ANALYZE of
 * every table holds PGlite, which runs one statement at a time, for 1.5 s at a year of history
 * (60,000 runs): every other request's statement waits behind it. Table by table the longest hold is
 * the largest table's, about 0.45 s there, and the pause lets waiting statements through.
 */
export async function refreshStatistics(
  db: Pick<Database, 'orm' | 'exec'>,
  { pauseMs = 50 }: { pauseMs?: number } = {},
): Promise<{ tables: number; milliseconds: number }> {
  const started = performance.now();
  const result = (await db.orm.execute(
    sql`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY c.reltuples DESC, c.relname`,
  )) as unknown as { rows: { name: string }[] };
  for (const [i, { name }] of result.rows.entries()) {
    if (i > 0) await sleep(pauseMs);
    await db.exec(`ANALYZE "${name.replaceAll('"', '""')}"`);
  }
  return { tables: result.rows.length, milliseconds: Math.round(performance.now() - started) };
}
