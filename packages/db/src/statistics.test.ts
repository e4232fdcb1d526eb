import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, refreshStatistics, testEngines } from './index';

describe.each(testEngines())('refreshStatistics on $name', ({ open }) => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await open());
    await db.exec(`CREATE TABLE stats_probe (n integer NOT NULL);
      INSERT INTO stats_probe SELECT g % 7 FROM generate_series(1, 2000) g;`);
  });
  afterAll(async () => {
    await db.exec('DROP TABLE IF EXISTS stats_probe');
    await db.close();
    await drop();
  });

  it('analyses every table of the schema, one statement each, so the planner knows a new table', async () => {
    const tables = (await db.orm.execute(
      sql`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = current_schema()`,
    )) as unknown as { rows: { n: number }[] };
    const report = await refreshStatistics(db, { pauseMs: 0 });
    expect(report.tables).toBe(tables.rows[0].n);
    const stats = (await db.orm.execute(
      sql`SELECT n_distinct FROM pg_stats WHERE tablename = 'stats_probe' AND attname = 'n'`,
    )) as unknown as { rows: { n_distinct: number }[] };
    expect(stats.rows.map((r) => Number(r.n_distinct))).toEqual([7]);
  });
});
