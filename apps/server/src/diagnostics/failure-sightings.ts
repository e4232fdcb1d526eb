import type {
  FailureGroupRow,
  FailureGroupsRepository,
  FailureSightingsRow,
  TestResultRow,
  TestRunRow,
} from '@argus/db';
import { type FailureGroup, FailureKindSchema, type FailureSightings } from '@argus/protocol';

/** A run's failures seen elsewhere in its project, by fingerprint ('Seen in 14 runs since …'). */
export type SightingsByFingerprint = ReadonlyMap<string, FailureSightings>;

/** A repository row as clients see it (FailureSightingsSchema). */
export function toFailureSightings(row: FailureSightingsRow): FailureSightings {
  return {
    fingerprint: row.fingerprint,
    runs: row.runs,
    first_run_id: row.first_run_id,
    first_seen_at: row.first_seen_at.toISOString(),
    last_run_id: row.last_run_id,
    last_seen_at: row.last_seen_at.toISOString(),
  };
}

/**
 * The sightings of every failure of one run, in one query for the whole run (never one per result).
 * Empty for a run without a project (its failures have no project to be counted in) or without a
 * fingerprinted failure.
 */
export async function runSightings(
  failureGroups: Pick<FailureGroupsRepository, 'sightings'>,
  ownerId: string,
  run: Pick<TestRunRow, 'project_id'>,
  results: readonly Pick<TestResultRow, 'failure_fingerprint'>[],
): Promise<SightingsByFingerprint> {
  const fingerprints = results.flatMap((r) => (r.failure_fingerprint ? [r.failure_fingerprint] : []));
  if (!run.project_id || fingerprints.length === 0) return new Map();
  const rows = await failureGroups.sightings(ownerId, run.project_id, fingerprints);
  return new Map(rows.map((row) => [row.fingerprint, toFailureSightings(row)]));
}

/** One result's `seen`: null when it did not fail with a fingerprint, or its run has no project. */
export function seenOf(
  result: Pick<TestResultRow, 'failure_fingerprint'>,
  sightings: SightingsByFingerprint,
): FailureSightings | null {
  return (result.failure_fingerprint && sightings.get(result.failure_fingerprint)) || null;
}

/** An open group as clients see it (FailureGroupSchema); null for a row whose label is unknown. */
export function toFailureGroup(row: FailureGroupRow): FailureGroup | null {
  const kind = FailureKindSchema.safeParse(row.kind);
  if (!kind.success) return null;
  return {
    ...toFailureSightings(row),
    kind: kind.data,
    summary: row.summary,
    cases: row.cases,
    project_id: row.project_id,
  };
}
