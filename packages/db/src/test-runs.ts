import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, lt, notInArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Drizzle } from './database';
import { ownedRows } from './owned-rows';
import {
  caseArtifacts,
  type ScreenshotRow,
  screenshots,
  type TestResultRow,
  type TestRunRow,
  testResults,
  testRuns,
  visualBaselines,
  visualChecks,
} from './schema';
import { isUuid } from './users';

/**
 * A run to record. A run on a project's environment or of a saved suite also gives `project_id`,
 * `environment_id`, `environment_name` (kept as it was then), `suite_id` and `suite_version`; the
 * caller has checked they are the user's.
 */
export type NewTestRun = Partial<Omit<TestRunRow, 'id' | 'user_id' | 'created_at' | 'updated_at'>> & {
  url: string;
};
export type TestRunPatch = Partial<Omit<TestRunRow, 'id' | 'user_id' | 'created_at'>>;
/** The failure and diagnostics columns (0018) a result has only when it failed or was recorded. */
type ResultDiagnosis =
  | 'failure_kind'
  | 'failure_evidence'
  | 'failure_fingerprint'
  | 'failure_summary'
  | 'failure_step'
  | 'diagnostics';
/** `attempts` defaults to 1 (the case ran once); no failure nor diagnostics unless given. */
export type NewTestResult = Omit<
  TestResultRow,
  'id' | 'user_id' | 'created_at' | 'test_run_id' | 'attempts' | ResultDiagnosis
> & {
  attempts?: number;
} & Partial<Pick<TestResultRow, ResultDiagnosis>>;
export type NewScreenshot = Omit<ScreenshotRow, 'id' | 'user_id' | 'created_at'>;

/** Test runs, their results and their screenshots; every call takes the owner's id. */
export function testRunsRepository(orm: Drizzle) {
  const runs = ownedRows(orm, testRuns);
  const owned = runs.mine;
  const ownedScreenshots = ownedRows(orm, screenshots);
  return {
    create: (userId: string, input: NewTestRun): Promise<TestRunRow> => runs.add(userId, input),
    get: (userId: string, id: string): Promise<TestRunRow | undefined> => runs.get(userId, id),
    async list(
      userId: string,
      filter: { session_id?: string; status?: string; limit: number; offset: number },
    ): Promise<TestRunRow[]> {
      const conditions: SQL[] = [eq(testRuns.user_id, userId)];
      if (filter.session_id) conditions.push(eq(testRuns.session_id, filter.session_id));
      if (filter.status) conditions.push(eq(testRuns.status, filter.status));
      return orm
        .select()
        .from(testRuns)
        .where(and(...conditions))
        .orderBy(desc(testRuns.created_at), desc(testRuns.id))
        .limit(filter.limit)
        .offset(filter.offset);
    },
    /** The latest runs recorded against one of the user's projects, newest first. */
    async listForProject(userId: string, projectId: string, limit: number): Promise<TestRunRow[]> {
      if (!isUuid(projectId)) return [];
      return orm
        .select()
        .from(testRuns)
        .where(and(eq(testRuns.user_id, userId), eq(testRuns.project_id, projectId)))
        .orderBy(desc(testRuns.created_at), desc(testRuns.id))
        .limit(limit);
    },
    update: (userId: string, id: string, patch: TestRunPatch): Promise<TestRunRow | undefined> =>
      runs.update(userId, id, patch),
    /** `update`, only while the run is still pending or running: an end recorded meanwhile stays. */
    updateIfOpen: (userId: string, id: string, patch: TestRunPatch): Promise<TestRunRow | undefined> =>
      runs.update(userId, id, patch, inArray(testRuns.status, ['pending', 'running'])),
    /**
     * Counts one finished test into its run, atomically (tests of a run finish in parallel). `true` or
     * 'passed' counts a pass, `false` or 'failed' a failure, 'flaky' (passed only on a retry,
     * docs/HISTORY.md#retries) neither: it goes to flaky_tests.
     */
    async countResult(
      userId: string,
      id: string,
      outcome: boolean | 'passed' | 'failed' | 'flaky',
    ): Promise<void> {
      const status = outcome === true ? 'passed' : outcome === false ? 'failed' : outcome;
      const plusOne = (column: AnyPgColumn) => sql<number>`${column} + 1`;
      await orm
        .update(testRuns)
        .set({
          ...(status === 'passed' ? { passed_tests: plusOne(testRuns.passed_tests) } : {}),
          ...(status === 'failed' ? { failed_tests: plusOne(testRuns.failed_tests) } : {}),
          ...(status === 'flaky' ? { flaky_tests: plusOne(testRuns.flaky_tests) } : {}),
          updated_at: new Date(),
        })
        .where(owned(userId, id));
    },
    /** Appends to the run's execution log without rewriting it from a stale copy. */
    async appendLog(
      userId: string,
      id: string,
      entries: { timestamp: string; level: string; message: string }[],
    ) {
      if (entries.length === 0) return;
      await orm
        .update(testRuns)
        .set({ execution_log: sql`${testRuns.execution_log} || ${JSON.stringify(entries)}::jsonb` })
        .where(owned(userId, id));
    },
    /** At start-up: runs a previous process left running cannot finish any more. */
    async markInterrupted(): Promise<number> {
      const rows = await orm
        .update(testRuns)
        .set({ status: 'interrupted', completed_at: new Date(), updated_at: new Date() })
        .where(eq(testRuns.status, 'running'))
        .returning({ id: testRuns.id });
      return rows.length;
    },
    /**
     * With workers: runs still pending or running whose work is gone (no job holds them any more), made
     * before `madeBefore` (younger ones may be between their row and their job), except `keep`, the
     * runs of the jobs still queued or under way. Answers the runs it marked interrupted.
     */
    async interruptOrphans(keep: string[], madeBefore: Date): Promise<{ id: string; user_id: string }[]> {
      const now = new Date();
      return orm
        .update(testRuns)
        .set({ status: 'interrupted', completed_at: now, updated_at: now })
        .where(
          and(
            inArray(testRuns.status, ['pending', 'running']),
            lt(testRuns.created_at, madeBefore),
            keep.length > 0 ? notInArray(testRuns.id, keep.filter(isUuid)) : undefined,
          ),
        )
        .returning({ id: testRuns.id, user_id: testRuns.user_id });
    },
    async addResult(userId: string, runId: string, input: NewTestResult): Promise<TestResultRow> {
      const [row] = await orm
        .insert(testResults)
        .values({ ...input, id: randomUUID(), user_id: userId, test_run_id: runId })
        .returning();
      return row;
    },
    /** Replaces a run's results (PUT with test_results), in one transaction; false if not the user's run. */
    async replaceResults(userId: string, runId: string, inputs: NewTestResult[]): Promise<boolean> {
      if (!isUuid(runId)) return false;
      return orm.transaction(async (tx) => {
        const [run] = await tx.select({ id: testRuns.id }).from(testRuns).where(owned(userId, runId));
        if (!run) return false;
        await tx
          .delete(testResults)
          .where(and(eq(testResults.test_run_id, runId), eq(testResults.user_id, userId)));
        if (inputs.length > 0) {
          await tx
            .insert(testResults)
            .values(
              inputs.map((input) => ({ ...input, id: randomUUID(), user_id: userId, test_run_id: runId })),
            );
        }
        return true;
      });
    },
    /** The results of one run or of several (a list page), oldest first. */
    async results(userId: string, runIds: string | string[]): Promise<TestResultRow[]> {
      const ids = (Array.isArray(runIds) ? runIds : [runIds]).filter(isUuid);
      if (ids.length === 0) return [];
      return orm
        .select()
        .from(testResults)
        .where(and(inArray(testResults.test_run_id, ids), eq(testResults.user_id, userId)))
        .orderBy(asc(testResults.created_at));
    },
    /** Deletes one of the user's runs with its results and screenshot rows; false if not the user's. */
    async delete(userId: string, id: string): Promise<boolean> {
      if (!isUuid(id)) return false;
      const rows = await orm.delete(testRuns).where(owned(userId, id)).returning({ id: testRuns.id });
      return rows.length > 0;
    },
    /**
     * Bytes of every screenshot the user keeps and of every file their runs' cases left (traces,
     * videos, console and network: case_artifacts); MAX_STORED_BYTES_PER_USER counts these.
     */
    async storedBytes(userId: string): Promise<number> {
      const sum = (column: AnyPgColumn) => sql<string | number | null>`sum(${column})`;
      const [[shots], [files], [checks], [baselines]] = await Promise.all([
        orm
          .select({ total: sum(screenshots.bytes) })
          .from(screenshots)
          .where(eq(screenshots.user_id, userId)),
        orm
          .select({ total: sum(caseArtifacts.bytes) })
          .from(caseArtifacts)
          .where(eq(caseArtifacts.user_id, userId)),
        // Visual checks' pictures and the baselines approved (docs/VISUAL-CHECKS.md).
        orm
          .select({
            total: sql<string | number | null>`sum(${visualChecks.bytes} + ${visualChecks.diff_bytes})`,
          })
          .from(visualChecks)
          .where(eq(visualChecks.user_id, userId)),
        orm
          .select({ total: sum(visualBaselines.bytes) })
          .from(visualBaselines)
          .where(eq(visualBaselines.user_id, userId)),
      ]);
      return [shots, files, checks, baselines].reduce((total, row) => total + Number(row?.total ?? 0), 0);
    },
    addScreenshot: (userId: string, input: NewScreenshot): Promise<ScreenshotRow> =>
      ownedScreenshots.add(userId, input),
    screenshot: (userId: string, id: string): Promise<ScreenshotRow | undefined> =>
      ownedScreenshots.get(userId, id),
    async screenshots(userId: string, runIds: string[], testCaseName?: string): Promise<ScreenshotRow[]> {
      const ids = runIds.filter(isUuid);
      if (ids.length === 0) return [];
      const conditions: SQL[] = [eq(screenshots.user_id, userId), inArray(screenshots.test_run_id, ids)];
      if (testCaseName !== undefined) conditions.push(eq(screenshots.test_case_name, testCaseName));
      return orm
        .select()
        .from(screenshots)
        .where(and(...conditions))
        .orderBy(asc(screenshots.created_at), asc(screenshots.step_index));
    },
  };
}
export type TestRunsRepository = ReturnType<typeof testRunsRepository>;
