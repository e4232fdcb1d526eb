import { type SQL, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import { isUuid } from './users';

// The same failure across runs (docs/DIAGNOSTICS.md): results sharing a failure_fingerprint, counted per
// project through test_results_user_fingerprint_idx (0018_case_diagnostics.sql). Raw SQL, owner-scoped
// on every table. What a query reads grows with how often the fingerprints it asks about were seen,
// never with the length of the history: a sighting is one index entry, its result and its run by key.

/** How often one fingerprint was seen in one project (FailureSightingsSchema's fields). */
export interface FailureSightingsRow {
  fingerprint: string;
  /** Distinct runs of the project with a result failing this way. */
  runs: number;
  first_run_id: string;
  first_seen_at: Date;
  last_run_id: string;
  last_seen_at: Date;
}

/** An open failure group (FailureGroupSchema's fields). */
export interface FailureGroupRow extends FailureSightingsRow {
  project_id: string | null;
  /** The latest sighting's label and summary. */
  kind: string;
  summary: string;
  /** Case names, the most recently failing first, at most MAX_GROUP_CASES. */
  cases: string[];
}

export interface OpenGroupsFilter {
  projectId?: string;
  /** Only groups last seen at or after this instant. */
  since?: Date;
  limit: number;
}

/** Case names a group lists. */
export const MAX_GROUP_CASES = 20;
/**
 * Runs outside a saved suite have no row naming their suite, so their latest runs are found by walking
 * the runs themselves: over this many days (or since `since`, if later), never a year of them.
 */
export const AD_HOC_WINDOW_DAYS = 30;

const FINISHED = sql.raw(`r.status NOT IN ('pending', 'running')`);

/**
 * A sighting's columns, aggregated over `s` (run_id, run_at) grouped by fingerprint: distinct runs, and
 * the first and last run by (created_at, id).
 */
const SIGHTING_AGGREGATES = sql.raw(`count(DISTINCT s.run_id)::int AS runs,
  (array_agg(s.run_id::text ORDER BY s.run_at, s.run_id))[1] AS first_run_id, min(s.run_at) AS first_seen_at,
  (array_agg(s.run_id::text ORDER BY s.run_at DESC, s.run_id DESC))[1] AS last_run_id,
  max(s.run_at) AS last_seen_at`);

async function rows<T>(orm: Drizzle, query: SQL): Promise<T[]> {
  return ((await orm.execute(query)) as unknown as { rows: T[] }).rows;
}

function sightingsOf(row: Record<string, unknown>): FailureSightingsRow {
  return {
    fingerprint: String(row.fingerprint),
    runs: Number(row.runs),
    first_run_id: String(row.first_run_id),
    first_seen_at: new Date(row.first_seen_at as string | Date),
    last_run_id: String(row.last_run_id),
    last_seen_at: new Date(row.last_seen_at as string | Date),
  };
}

/** The latest finished run of each suite of the owner (optionally of one project), as `latest(id)`. */
function latestRuns(ownerId: string, filter: OpenGroupsFilter, now: Date): SQL {
  const ofProject = (alias: string) =>
    filter.projectId ? sql` AND ${sql.raw(alias)}.project_id = ${filter.projectId}::uuid` : sql``;
  const windowStart = new Date(
    Math.max(now.getTime() - AD_HOC_WINDOW_DAYS * 86_400_000, filter.since?.getTime() ?? 0),
  );
  // A saved suite's latest finished run: its runs newest first (test_runs_user_suite_created_idx), the
  // first finished one. Other runs: the latest per (project, address, suite name), as history compares
  // them (docs/HISTORY.md), within the window.
  return sql`SELECT lr.id FROM saved_suites ss
      CROSS JOIN LATERAL (SELECT r.id FROM test_runs r
        WHERE r.user_id = ss.user_id AND r.suite_id = ss.id AND ${FINISHED}
        ORDER BY r.created_at DESC, r.id DESC LIMIT 1) lr
      WHERE ss.user_id = ${ownerId}::uuid${ofProject('ss')}
    UNION
    SELECT a.id FROM (SELECT DISTINCT ON (r.project_id, r.url, r.test_suite_name) r.id FROM test_runs r
        WHERE r.user_id = ${ownerId}::uuid AND r.suite_id IS NULL AND ${FINISHED}
          AND r.created_at >= ${windowStart.toISOString()}::timestamptz${ofProject('r')}
        ORDER BY r.project_id, r.url, r.test_suite_name, r.created_at DESC, r.id DESC) a`;
}

/** The sightings query (exported for the plan test: EXPLAIN of what runs). */
export function sightingsSql(ownerId: string, projectId: string, fingerprints: string[]): SQL {
  return sql`SELECT s.fingerprint, ${SIGHTING_AGGREGATES}
    FROM (SELECT t.failure_fingerprint AS fingerprint, t.test_run_id AS run_id, r.created_at AS run_at
      FROM test_results t JOIN test_runs r ON r.id = t.test_run_id AND r.user_id = t.user_id
      WHERE t.user_id = ${ownerId}::uuid AND t.failure_fingerprint IS NOT NULL
        AND t.failure_fingerprint IN (${sql.join(
          fingerprints.map((f) => sql`${f}`),
          sql`, `,
        )})
        AND r.project_id = ${projectId}::uuid) s
    GROUP BY s.fingerprint`;
}

/** The open groups query (exported for the plan test). */
export function openGroupsSql(ownerId: string, filter: OpenGroupsFilter, now: Date): SQL {
  const since = filter.since
    ? sql`WHERE g.last_seen_at >= ${filter.since.toISOString()}::timestamptz`
    : sql``;
  return sql`WITH latest AS (${latestRuns(ownerId, filter, now)}),
    open AS (SELECT DISTINCT r.project_id, t.failure_fingerprint AS fingerprint
      FROM latest l JOIN test_runs r ON r.id = l.id AND r.user_id = ${ownerId}::uuid
      JOIN test_results t ON t.test_run_id = r.id AND t.user_id = r.user_id
      WHERE t.failure_fingerprint IS NOT NULL),
    -- Every sighting of an open fingerprint in its project, through the fingerprint index.
    s AS MATERIALIZED (SELECT o.project_id, o.fingerprint, t.test_run_id AS run_id, r.created_at AS run_at,
        t.test_case_name, t.failure_kind, t.failure_summary, t.created_at
      FROM open o
      JOIN test_results t ON t.user_id = ${ownerId}::uuid AND t.failure_fingerprint IS NOT NULL
        AND t.failure_fingerprint = o.fingerprint
      JOIN test_runs r ON r.id = t.test_run_id AND r.user_id = t.user_id
        AND r.project_id IS NOT DISTINCT FROM o.project_id),
    case_last AS (SELECT s.project_id, s.fingerprint, s.test_case_name, max(s.created_at) AS at,
        row_number() OVER (PARTITION BY s.project_id, s.fingerprint ORDER BY max(s.created_at) DESC,
          s.test_case_name) AS n
      FROM s GROUP BY s.project_id, s.fingerprint, s.test_case_name),
    g AS (SELECT s.project_id, s.fingerprint, ${SIGHTING_AGGREGATES},
        (array_agg(s.failure_kind ORDER BY s.created_at DESC))[1] AS kind,
        (array_agg(s.failure_summary ORDER BY s.created_at DESC))[1] AS summary
      FROM s GROUP BY s.project_id, s.fingerprint)
  SELECT g.fingerprint, g.runs, g.first_run_id, g.first_seen_at, g.last_run_id, g.last_seen_at, g.kind,
    g.summary, g.project_id::text AS project_id,
    (SELECT array_agg(c.test_case_name ORDER BY c.n) FROM case_last c
      WHERE c.project_id IS NOT DISTINCT FROM g.project_id AND c.fingerprint = g.fingerprint
        AND c.n <= ${MAX_GROUP_CASES}) AS cases
  FROM g ${since}
  ORDER BY g.last_seen_at DESC, g.fingerprint LIMIT ${filter.limit}`;
}

/** Failure groups and their sightings; every call takes the owner's (organization's) id. */
export function failureGroupsRepository(orm: Drizzle) {
  return {
    /**
     * Per fingerprint, the runs of the project with a result failing that way: how many, the first and
     * the last. Fingerprints never seen in the project are left out.
     */
    async sightings(
      ownerId: string,
      projectId: string,
      fingerprints: string[],
    ): Promise<FailureSightingsRow[]> {
      const wanted = [...new Set(fingerprints)];
      if (!isUuid(projectId) || wanted.length === 0) return [];
      const found = await rows<Record<string, unknown>>(orm, sightingsSql(ownerId, projectId, wanted));
      return found.map(sightingsOf);
    },

    /**
     * The open failure groups: fingerprints that failed in the latest finished run of their suite, per
     * project, with every sighting in that project counted; last seen first.
     */
    async openGroups(
      ownerId: string,
      filter: OpenGroupsFilter,
      now = new Date(),
    ): Promise<FailureGroupRow[]> {
      if (filter.projectId !== undefined && !isUuid(filter.projectId)) return [];
      const found = await rows<Record<string, unknown>>(orm, openGroupsSql(ownerId, filter, now));
      return found.map((row) => ({
        ...sightingsOf(row),
        project_id: (row.project_id as string | null) ?? null,
        kind: String(row.kind),
        summary: (row.summary as string | null) ?? '',
        cases: (row.cases as string[] | null) ?? [],
      }));
    },
  };
}
export type FailureGroupsRepository = ReturnType<typeof failureGroupsRepository>;
