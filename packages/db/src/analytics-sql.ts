import { type SQL, sql } from 'drizzle-orm';
import type { Drizzle } from './database';

// The pieces of SQL the analytics queries share (analytics.ts, analytics-days.ts,
// analytics-case-figures.ts, analytics-rollups.ts).

export interface AnalyticsRange {
  /** Inclusive. */
  from: Date;
  /** Exclusive. */
  to: Date;
  /** An IANA zone PostgreSQL knows (the service checks it first). */
  tz: string;
  project_id?: string;
  /** How many rows the ranked lists answer. */
  top: number;
}

export const DAY_MS = 86_400_000;

export const iso = (column: string) =>
  sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
/** The scheme and host of a URL, lower-cased: a design comparison's site. */
export const origin = (column: string) =>
  sql.raw(`lower(substring(${column} from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]+'))`);

export async function rows<T>(orm: Drizzle, query: SQL): Promise<T[]> {
  const result = (await orm.execute(query)) as unknown as { rows: Record<string, unknown>[] };
  return result.rows as T[];
}

/**
 * `rows` for the heavier analytics queries, in a transaction of their own: PostgreSQL's JIT compilation
 * off, and room to sort a year of runs in memory. The planner's guesses for the case figures (a row per
 * case where there are tens) cost them past jit_above_cost, and compiling the plan then took 5.5 s of a
 * 6 s query on PostgreSQL 15 that runs in 0.2 s; with the default 4 MB, a year's durations sorted on
 * disk. PGlite has no JIT (the setting is a no-op there).
 */
export function heavyRows<T>(orm: Drizzle, query: SQL): Promise<T[]> {
  return orm.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL jit = off`);
    await tx.execute(sql`SET LOCAL work_mem = '32MB'`);
    return rows<T>(tx as unknown as Drizzle, query);
  });
}

/** node-postgres answers bigint, numeric and aggregates as text; PGlite as numbers. */
export function numbers<T>(row: Record<string, unknown>, keys: (keyof T)[]): T {
  const out = { ...row };
  for (const key of keys as string[]) out[key] = out[key] === null ? null : Number(out[key]);
  return out as T;
}

/** The user's runs of the range (and project), as `r` (test_runs or analytics_runs). */
export const runsOf = (userId: string, range: AnalyticsRange): SQL => {
  const conditions: SQL[] = [
    sql`r.user_id = ${userId}::uuid`,
    sql`r.created_at >= ${range.from.toISOString()}::timestamptz`,
    sql`r.created_at < ${range.to.toISOString()}::timestamptz`,
  ];
  if (range.project_id) conditions.push(sql`r.project_id = ${range.project_id}::uuid`);
  return sql.join(conditions, sql` AND `);
};
