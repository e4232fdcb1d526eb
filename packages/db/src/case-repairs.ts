import { and, asc, desc, eq, inArray, isNotNull, notInArray, type SQL, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import { ownedRows } from './owned-rows';
import { type CaseRepairRow, caseRepairs, screenshots, testResults, testRuns } from './schema';
import { isUuid } from './users';

export type { CaseRepairRow };
export type NewCaseRepair = Omit<
  CaseRepairRow,
  'id' | 'user_id' | 'created_at' | 'decided_by' | 'decided_at' | 'decision_reason' | 'saved_version'
>;

/** What a case's last passing result left: its run, its row and the steps as the runner reported them. */
export interface LastPassingRow {
  run_id: string;
  result_id: string;
  steps: unknown[];
}

/** A suite's repairs listed at most (newest first). */
export const MAX_SUITE_REPAIRS = 500;

const ORDER_IN_RUN = [asc(caseRepairs.case_index), asc(caseRepairs.created_at), asc(caseRepairs.id)];

/**
 * Repair verdicts: written by the run as each failed case of a saved suite is judged, read by the run
 * view and the suite page, decided by review. Every call takes the owner's (organization's) id, so
 * another's row reads as a missing one. Rows go with their run and their suite (ON DELETE CASCADE).
 */
export function caseRepairsRepository(orm: Drizzle) {
  const rows = ownedRows(orm, caseRepairs);
  const mine = (ownerId: string) => eq(caseRepairs.user_id, ownerId);
  return {
    add: (ownerId: string, input: NewCaseRepair): Promise<CaseRepairRow> => rows.add(ownerId, input),
    get: (ownerId: string, id: string): Promise<CaseRepairRow | undefined> => rows.get(ownerId, id),

    /** Several of the owner's rows by id (those that are not the owner's, or not ids, are left out). */
    async many(ownerId: string, ids: readonly string[]): Promise<CaseRepairRow[]> {
      const wanted = [...new Set(ids.filter(isUuid))];
      if (wanted.length === 0) return [];
      return orm
        .select()
        .from(caseRepairs)
        .where(and(mine(ownerId), inArray(caseRepairs.id, wanted)))
        .orderBy(...ORDER_IN_RUN);
    },

    /** A run's verdicts in case order. */
    async forRun(ownerId: string, runId: string): Promise<CaseRepairRow[]> {
      if (!isUuid(runId)) return [];
      return orm
        .select()
        .from(caseRepairs)
        .where(and(mine(ownerId), eq(caseRepairs.test_run_id, runId)))
        .orderBy(...ORDER_IN_RUN);
    },

    /** A suite's verdicts, newest first, optionally of one status. */
    async forSuite(
      ownerId: string,
      suiteId: string,
      filter: { status?: string; limit?: number } = {},
    ): Promise<CaseRepairRow[]> {
      if (!isUuid(suiteId)) return [];
      const conditions: SQL[] = [mine(ownerId), eq(caseRepairs.suite_id, suiteId)];
      if (filter.status) conditions.push(eq(caseRepairs.status, filter.status));
      return orm
        .select()
        .from(caseRepairs)
        .where(and(...conditions))
        .orderBy(desc(caseRepairs.created_at), asc(caseRepairs.case_index))
        .limit(filter.limit ?? MAX_SUITE_REPAIRS);
    },

    /** A case's rejected repairs: what a later repair of it must not propose again. */
    async rejected(
      ownerId: string,
      suiteId: string,
      caseName: string,
    ): Promise<{ page_state: string; after: string[] }[]> {
      if (!isUuid(suiteId)) return [];
      const found = await orm
        .select({ page_state: caseRepairs.page_state, after: caseRepairs.steps_after })
        .from(caseRepairs)
        .where(
          and(
            mine(ownerId),
            eq(caseRepairs.suite_id, suiteId),
            eq(caseRepairs.case_name, caseName),
            eq(caseRepairs.status, 'rejected'),
            isNotNull(caseRepairs.page_state),
          ),
        )
        .orderBy(desc(caseRepairs.created_at));
      return found.map((row) => ({ page_state: row.page_state ?? '', after: row.after }));
    },

    /**
     * The row `id` made the verdict `input` in place (a case of the run labelled a bug, repaired on its
     * second try with the renames learnt since): its id and creation time kept, any decision cleared.
     * Undefined when it is not the owner's.
     */
    replace(ownerId: string, id: string, input: NewCaseRepair): Promise<CaseRepairRow | undefined> {
      return rows.update(ownerId, id, {
        ...input,
        decided_by: null,
        decided_at: null,
        decision_reason: null,
        saved_version: null,
      });
    },

    /** Rejects a proposal still waiting for review; undefined when it is not (or not the owner's). */
    reject(
      ownerId: string,
      id: string,
      decision: { decided_by: string; reason: string | null },
    ): Promise<CaseRepairRow | undefined> {
      return rows.update(
        ownerId,
        id,
        {
          status: 'rejected',
          decided_by: decision.decided_by,
          decided_at: new Date(),
          decision_reason: decision.reason,
        },
        eq(caseRepairs.status, 'proposed'),
      );
    },

    /**
     * Marks proposals approved into `saved_version`, and every other proposal for the same cases of
     * the suite superseded (they were made from steps that are no longer saved), in one transaction.
     * Answers the approved rows (only those that were still proposed).
     */
    async approve(
      ownerId: string,
      suiteId: string,
      ids: readonly string[],
      decision: { decided_by: string; saved_version: number },
    ): Promise<CaseRepairRow[]> {
      const wanted = [...new Set(ids.filter(isUuid))];
      if (wanted.length === 0 || !isUuid(suiteId)) return [];
      return orm.transaction(async (tx) => {
        const decided_at = new Date();
        const approved = await tx
          .update(caseRepairs)
          .set({
            status: 'approved',
            decided_by: decision.decided_by,
            decided_at,
            saved_version: decision.saved_version,
          })
          .where(
            and(
              mine(ownerId),
              eq(caseRepairs.suite_id, suiteId),
              inArray(caseRepairs.id, wanted),
              eq(caseRepairs.status, 'proposed'),
            ),
          )
          .returning();
        const cases = [...new Set(approved.map((row) => row.case_name))];
        if (cases.length > 0) {
          await tx
            .update(caseRepairs)
            .set({ status: 'superseded', decided_at })
            .where(
              and(
                mine(ownerId),
                eq(caseRepairs.suite_id, suiteId),
                inArray(caseRepairs.case_name, cases),
                eq(caseRepairs.status, 'proposed'),
                notInArray(caseRepairs.id, wanted),
              ),
            );
        }
        return approved.sort((a, b) => a.case_index - b.case_index);
      });
    },

    /** A run's proposals waiting for review, and its failures labelled a bug. */
    async runCounts(ownerId: string, runId: string): Promise<{ proposed: number; bugs: number }> {
      if (!isUuid(runId)) return { proposed: 0, bugs: 0 };
      const [row] = await orm
        .select({
          proposed: sql<number>`count(*) FILTER (WHERE ${caseRepairs.status} = 'proposed')::int`,
          bugs: sql<number>`count(*) FILTER (WHERE ${caseRepairs.verdict} = 'bug')::int`,
        })
        .from(caseRepairs)
        .where(and(mine(ownerId), eq(caseRepairs.test_run_id, runId)));
      return { proposed: Number(row?.proposed ?? 0), bugs: Number(row?.bugs ?? 0) };
    },

    /**
     * The latest passing (or flaky: its final attempt passed) result of a suite's case, through the
     * history's case index (test_results_user_case_idx), newest first; undefined when it never passed.
     */
    async lastPassing(
      ownerId: string,
      suiteId: string,
      caseName: string,
    ): Promise<LastPassingRow | undefined> {
      if (!isUuid(suiteId)) return undefined;
      const [row] = await orm
        .select({ run_id: testResults.test_run_id, result_id: testResults.id, steps: testResults.steps })
        .from(testResults)
        .innerJoin(testRuns, and(eq(testRuns.id, testResults.test_run_id), eq(testRuns.user_id, ownerId)))
        .where(
          and(
            eq(testResults.user_id, ownerId),
            eq(testResults.test_case_name, caseName),
            inArray(testResults.status, ['passed', 'flaky']),
            eq(testRuns.suite_id, suiteId),
          ),
        )
        .orderBy(desc(testResults.created_at), desc(testResults.id))
        .limit(1);
      return row;
    },

    /** The latest result row of a case in a run (the one a run's case just recorded). */
    async resultOf(ownerId: string, runId: string, caseName: string): Promise<string | null> {
      if (!isUuid(runId)) return null;
      const [row] = await orm
        .select({ id: testResults.id })
        .from(testResults)
        .where(
          and(
            eq(testResults.user_id, ownerId),
            eq(testResults.test_run_id, runId),
            eq(testResults.test_case_name, caseName),
          ),
        )
        .orderBy(desc(testResults.created_at), desc(testResults.id))
        .limit(1);
      return row?.id ?? null;
    },

    /** The screenshot a run's case stored of one step (as the runner numbered it), or null. */
    async stepScreenshot(
      ownerId: string,
      runId: string,
      caseName: string,
      stepIndex: number,
    ): Promise<string | null> {
      if (!isUuid(runId)) return null;
      const [row] = await orm
        .select({ id: screenshots.id })
        .from(screenshots)
        .where(
          and(
            eq(screenshots.user_id, ownerId),
            eq(screenshots.test_run_id, runId),
            eq(screenshots.test_case_name, caseName),
            eq(screenshots.step_index, stepIndex),
          ),
        )
        .orderBy(desc(screenshots.created_at))
        .limit(1);
      return row?.id ?? null;
    },
  };
}
export type CaseRepairsRepository = ReturnType<typeof caseRepairsRepository>;
