import { type SQL, sql } from 'drizzle-orm';
import type { Drizzle } from './database';

// The pieces of SQL the analytics queries share (analytics.ts, analytics-days.ts,
// analytics-case-figures.ts).

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

/** node-postgres answers bigint, numeric and aggregates as text; PGlite as numbers. */
export function numbers<T>(row: Record<string, unknown>, keys: (keyof T)[]): T {
  const out = { ...row };
  for (const key of keys as string[]) out[key] = out[key] === null ? null : Number(out[key]);
  return out as T;
}

/** The user's runs of the range (and project), as `r`, with their saved suite as `s`. */
export const runsOf = (userId: string, range: AnalyticsRange): SQL => {
  const conditions: SQL[] = [
    sql`r.user_id = ${userId}::uuid`,
    sql`r.created_at >= ${range.from.toISOString()}::timestamptz`,
    sql`r.created_at < ${range.to.toISOString()}::timestamptz`,
  ];
  if (range.project_id) conditions.push(sql`r.project_id = ${range.project_id}::uuid`);
  return sql.join(conditions, sql` AND `);
};

export const day = (column: string, tz: string) =>
  sql`to_char((${sql.raw(column)} AT TIME ZONE ${tz})::date, 'YYYY-MM-DD')`;
export const suiteJoin = sql`LEFT JOIN saved_suites s ON s.id = r.suite_id AND s.user_id = r.user_id`;
export const suiteLabel = sql`COALESCE(s.name, NULLIF(r.test_suite_name, ''), r.url)`;
// A saved suite is one suite across its runs; an ad-hoc one is its name on its URL.
export const suiteKey = sql`COALESCE(r.suite_id::text, 'adhoc ' || r.url || ' ' || COALESCE(r.test_suite_name, ''))`;
