import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import { ownedRows } from './owned-rows';
import { caseArtifacts } from './schema';
import { isUuid } from './users';

/** One stored file of one attempt at a case: its trace, video, or console and network (0018). */
export type CaseArtifactRow = typeof caseArtifacts.$inferSelect;
export type NewCaseArtifact = Omit<CaseArtifactRow, 'id' | 'user_id' | 'created_at'>;

/** The order a case's files are listed in: by case, then attempt, then kind. */
const ORDER = [
  asc(caseArtifacts.test_case_name),
  asc(caseArtifacts.attempt),
  asc(caseArtifacts.kind),
  asc(caseArtifacts.created_at),
];

/**
 * The files a run's cases left (docs/DIAGNOSTICS.md): each row names a blob (BlobStore, by sha256)
 * like a screenshot's, is counted in its owner's storage quota, and goes with its run (ON DELETE
 * CASCADE; retention's blob sweep asks `referencedBlobs`, which names these too). Every call takes
 * the owner's id.
 */
export function caseArtifactsRepository(orm: Drizzle) {
  const rows = ownedRows(orm, caseArtifacts);
  const forRuns = async (ownerId: string, runIds: readonly string[]): Promise<CaseArtifactRow[]> => {
    const ids = runIds.filter(isUuid);
    if (ids.length === 0) return [];
    return orm
      .select()
      .from(caseArtifacts)
      .where(and(eq(caseArtifacts.user_id, ownerId), inArray(caseArtifacts.test_run_id, ids)))
      .orderBy(...ORDER);
  };
  return {
    add: (ownerId: string, input: NewCaseArtifact): Promise<CaseArtifactRow> => rows.add(ownerId, input),
    get: (ownerId: string, id: string): Promise<CaseArtifactRow | undefined> => rows.get(ownerId, id),
    /** Every file of the owner's run, by case, attempt and kind. */
    forRun: (ownerId: string, runId: string): Promise<CaseArtifactRow[]> => forRuns(ownerId, [runId]),
    /** Every file of several of the owner's runs (a list page): one query. */
    forRuns,
    /** One case's files of one kind (every attempt's, oldest attempt first). */
    async forCase(
      ownerId: string,
      runId: string,
      caseName: string,
      kind?: CaseArtifactRow['kind'],
    ): Promise<CaseArtifactRow[]> {
      if (!isUuid(runId)) return [];
      const conditions: SQL[] = [
        eq(caseArtifacts.user_id, ownerId),
        eq(caseArtifacts.test_run_id, runId),
        eq(caseArtifacts.test_case_name, caseName),
      ];
      if (kind) conditions.push(eq(caseArtifacts.kind, kind));
      return orm
        .select()
        .from(caseArtifacts)
        .where(and(...conditions))
        .orderBy(...ORDER);
    },
    /** Bytes of every file the owner keeps (MAX_STORED_BYTES_PER_USER counts these with screenshots). */
    async storedBytes(ownerId: string): Promise<number> {
      const [row] = await orm
        .select({ total: sql<string | number | null>`sum(${caseArtifacts.bytes})` })
        .from(caseArtifacts)
        .where(eq(caseArtifacts.user_id, ownerId));
      return Number(row?.total ?? 0);
    },
  };
}
export type CaseArtifactsRepository = ReturnType<typeof caseArtifactsRepository>;
