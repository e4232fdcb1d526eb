import type { CaseArtifactRow, NewTestRun, Repositories, TestRunRow } from '@argus/db';
import {
  BUILTIN_ENGINE,
  type CapturedScreenshot,
  type InterpreterUsage,
  type TestOutcome,
} from '@argus/engine';
import type { ScreenshotRef, TestCase } from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { checkSessionOwner, ownTestRun } from '../auth/ownership';
import { diagnosisColumns } from '../diagnostics/case-diagnosis';
import { type CaseFile, storeCaseFile } from '../diagnostics/case-file-store';
import { storageQuotaError } from '../limits/quotas';
import type { BlobStore } from '../storage/blob-store';
import type { SignedUrls } from '../storage/signed-urls';

/** A run's screenshot storage against MAX_STORED_BYTES_PER_USER: bytes counted as they are stored. */
export interface ScreenshotStorage {
  used: number;
  limit: number;
  /** Set once the run has logged that it stopped storing screenshots. */
  full: boolean;
  /** Set once the run has logged that it stopped storing its cases' traces, videos and diagnostics. */
  filesFull?: boolean;
}

/** The fields a new run is recorded with (the owner is given apart). */
export type RunFields = NewTestRun;

const now = () => new Date().toISOString();

/** A failed run's end, refused by the database, is tried again every 5 s for 10 minutes. */
export const RETRY_END = { forMs: 10 * 60_000, everyMs: 5_000 };

/**
 * Everything a run writes, as it happens, whether or not a client watches: the test run row and its
 * status, each test's result and counters, the execution log, and screenshots (blob plus row, within
 * the user's storage quota). Owner-scoped on every call. Automation records through it today;
 * design comparison and the conversational browser will record theirs the same way.
 */
export class RunRecorder {
  constructor(
    private readonly deps: {
      repos: Repositories;
      blobs: BlobStore;
      urls: SignedUrls;
      log: FastifyBaseLogger;
      /** MAX_STORED_BYTES_PER_USER. */
      maxStoredBytesPerUser: number;
      /** How long, and how often, a failed run's end the database refused is tried again. @default RETRY_END */
      retryEnd?: { forMs: number; everyMs: number };
    },
  ) {}

  /** Refuses (404 SESSION_NOT_FOUND) a session that is not the user's; none, or a `local_…` id, is fine. */
  checkSession(userId: string, sessionId: string | null | undefined): Promise<void> {
    return checkSessionOwner(this.deps.repos, userId, sessionId);
  }

  /** The user's test run `id`, or 404 TEST_RUN_NOT_FOUND. */
  ownRun(userId: string, id: string): Promise<TestRunRow> {
    return ownTestRun(this.deps.repos, userId, id);
  }

  /** The user's screenshot storage for a run; refused (413) when the quota is used up already. */
  async openStorage(userId: string): Promise<ScreenshotStorage> {
    const used = await this.deps.repos.testRuns.storedBytes(userId);
    const limit = this.deps.maxStoredBytesPerUser;
    if (used >= limit) throw storageQuotaError(used, limit);
    return { used, limit, full: false };
  }

  /** Records a new run (a generated suite waiting to be run, or a run starting). */
  create(userId: string, fields: RunFields): Promise<TestRunRow> {
    return this.deps.repos.testRuns.create(userId, fields);
  }

  /** The verdict of each case a run has recorded so far, by name (a resumed run skips them). */
  async recordedCases(userId: string, runId: string): Promise<Map<string, string>> {
    const rows = await this.deps.repos.testRuns.results(userId, runId);
    return new Map(rows.map((row) => [row.test_case_name, row.status]));
  }

  /** A run made before it starts (queued work, scale/queued-automation.ts): pending, with its fields. */
  async prepare(userId: string, fields: Omit<RunFields, 'status' | 'engine'>): Promise<string> {
    const run = await this.deps.repos.testRuns.create(userId, {
      ...fields,
      status: 'pending',
      engine: BUILTIN_ENGINE,
      total_tests: fields.test_cases?.length ?? 0,
    });
    return run.id;
  }

  /** A run begins: `existing` (a suite recorded earlier) is reset to running, or a new run is recorded. */
  async start(
    userId: string,
    existing: TestRunRow | undefined,
    start: {
      test_cases: TestCase[];
      test_mode: 'full' | 'command';
      command: string | null;
    },
    fresh: Omit<RunFields, 'test_cases' | 'test_mode' | 'command'>,
    /** `existing` is a run whose worker stopped mid-way, resumed: keep what it recorded. */
    resume = false,
  ): Promise<string> {
    const running = {
      status: 'running',
      started_at: new Date(),
      completed_at: null,
      total_tests: start.test_cases.length,
      passed_tests: 0,
      failed_tests: 0,
      flaky_tests: 0,
      ...start,
    };
    const { testRuns } = this.deps.repos;
    if (existing && resume) {
      // Taken up again after its worker stopped: what it recorded, counters included, stays.
      const resumed = await testRuns.update(userId, existing.id, { status: 'running', completed_at: null });
      if (!resumed) throw new Error('Could not record the test run');
      return resumed.id;
    }
    const run = existing
      ? await testRuns.update(userId, existing.id, running)
      : await testRuns.create(userId, { ...fresh, ...running });
    if (!run) throw new Error('Could not record the test run');
    return run.id;
  }

  /**
   * One test's outcome: its result row, the run's counters (atomic), and its log lines, prefixed with
   * its name. `attempts` is how many times it ran (docs/HISTORY.md#retries): a case that passed on a
   * later attempt is recorded as `flaky`, counted in flaky_tests and not in passed_tests. Its failure
   * label and its console and network counts (docs/DIAGNOSTICS.md) go on the row with it.
   */
  async recordResult(
    userId: string,
    runId: string,
    testCase: TestCase,
    outcome: TestOutcome,
    screenshots: ScreenshotRef[],
    attempts = 1,
  ): Promise<void> {
    const { testRuns } = this.deps.repos;
    const name = testCase.test_name;
    const status = outcome.status === 'passed' && attempts > 1 ? 'flaky' : outcome.status;
    await testRuns.addResult(userId, runId, {
      test_case_id: testCase.id ?? null,
      test_case_name: name,
      status,
      execution_time: outcome.executionTime,
      error_message: outcome.error,
      attempts,
      steps: outcome.steps,
      logs: outcome.logs,
      screenshots: screenshots.map((s) => s.id),
      ...diagnosisColumns(testCase, outcome),
    });
    await testRuns.countResult(userId, runId, status);
    await testRuns.appendLog(
      userId,
      runId,
      outcome.logs.map((l) => ({ ...l, message: `[${name}] ${l.message}` })),
    );
  }

  /** Every test ran. */
  async complete(
    userId: string,
    runId: string,
    executionTime: number,
    usage?: InterpreterUsage,
  ): Promise<void> {
    await this.deps.repos.testRuns.update(userId, runId, {
      status: 'completed',
      completed_at: new Date(),
      execution_time_seconds: executionTime,
      ...usageFields(usage),
    });
  }

  /**
   * The run's cases are all recorded: its day's analytics summaries are made now, in the background
   * (packages/db/src/analytics-rollups.ts), not at the first analytics query after the day ends. Neither
   * the run nor its user waits for it; a failure only leaves the day to be made by that query.
   */
  ended(userId: string, runId: string): void {
    this.deps.repos.analytics
      .rollUpRun(userId, runId)
      .catch((error: unknown) =>
        this.deps.log.warn({ err: error, runId }, 'analytics rollup of a run failed'),
      );
  }

  /** A line of the run's log that is not a test's (which engine ran it, why a model is not used). */
  async note(userId: string, runId: string, message: string, level: 'info' | 'warn' = 'info'): Promise<void> {
    await this.deps.repos.testRuns.appendLog(userId, runId, [{ timestamp: now(), level, message }]);
  }

  /** docs/PRODUCT.md#stopping-a-run: a run the user stopped is recorded as failed, and its log says so. */
  async stopped(
    userId: string,
    runId: string,
    executionTime: number,
    usage?: InterpreterUsage,
  ): Promise<void> {
    const { testRuns } = this.deps.repos;
    await testRuns.update(userId, runId, {
      status: 'failed',
      completed_at: new Date(),
      execution_time_seconds: executionTime,
      ...usageFields(usage),
    });
    await testRuns.appendLog(userId, runId, [
      { timestamp: now(), level: 'warn', message: 'Execution stopped by the user' },
    ]);
  }

  /** A server-side failure: the run is marked `error` (best effort; what it recorded stays). */
  async failed(userId: string, runId: string): Promise<void> {
    const ended = { status: 'error', completed_at: new Date() };
    try {
      await this.deps.repos.testRuns.update(userId, runId, ended);
    } catch (error) {
      // Most often the database itself, unreachable past DATABASE_RETRY_MS: the run would read
      // `running` until a restart or a sweep, so its end is tried again while the process lives, and
      // written only if nothing ended the run meanwhile (docs/DEPLOYMENT.md#postgresql).
      this.deps.log.warn({ err: error, runId }, 'a failed run could not be recorded; trying again');
      this.failedLater(userId, runId, ended);
    }
  }

  private failedLater(userId: string, runId: string, ended: { status: string; completed_at: Date }): void {
    const { forMs, everyMs } = this.deps.retryEnd ?? RETRY_END;
    const deadline = Date.now() + forMs;
    const attempt = () => {
      const timer = setTimeout(() => {
        this.deps.repos.testRuns.updateIfOpen(userId, runId, ended).then(
          () => this.deps.log.info({ runId }, 'a failed run was recorded on a later try'),
          (error: unknown) => {
            if (Date.now() < deadline) attempt();
            else this.deps.log.error({ err: error, runId }, 'a failed run could not be recorded');
          },
        );
      }, everyMs);
      // Tries wait for nothing else: a process that is ending does not wait for them.
      timer.unref();
    };
    attempt();
  }

  /** The server shut down under it: the run is marked `interrupted` (best effort). */
  async interrupted(userId: string, runId: string): Promise<void> {
    await this.deps.repos.testRuns
      .update(userId, runId, { status: 'interrupted', completed_at: new Date() })
      .catch(() => undefined);
  }

  /**
   * Stores one screenshot (the blob, then its row) within the run's storage, counted before the
   * write so tests running in parallel cannot all pass the same check. Past the quota it is not
   * stored (the step and its result still are; the image was shown live) and the run's log says so
   * once. Null when not stored.
   */
  async saveScreenshot(
    userId: string,
    runId: string,
    testCaseName: string,
    shot: CapturedScreenshot,
    storage: ScreenshotStorage,
  ): Promise<ScreenshotRef | null> {
    const bytes = shot.data.length;
    if (storage.used + bytes > storage.limit) {
      if (!storage.full) {
        storage.full = true;
        const why = storageQuotaError(storage.used, storage.limit).message;
        await this.deps.repos.testRuns
          .appendLog(userId, runId, [
            { timestamp: now(), level: 'warn', message: `Screenshots from here on are not stored. ${why}` },
          ])
          .catch(() => undefined);
      }
      return null;
    }
    storage.used += bytes;
    try {
      const sha256 = await this.deps.blobs.put(shot.data);
      const row = await this.deps.repos.testRuns.addScreenshot(userId, {
        test_run_id: runId,
        test_case_name: testCaseName,
        step_name: shot.step_name,
        step_index: shot.step_index,
        sha256,
        mime: 'image/jpeg',
        bytes,
        width: shot.width,
        height: shot.height,
        metadata: {},
      });
      return toScreenshotRef(row, this.deps.urls);
    } catch (error) {
      storage.used -= bytes;
      this.deps.log.warn({ err: error }, 'could not store a screenshot');
      return null;
    }
  }

  /**
   * Stores one file a case left (its trace, video, or console and network) within the run's storage;
   * past the quota it is skipped with one line in the run's log (diagnostics/case-file-store.ts).
   */
  saveCaseFile(
    userId: string,
    runId: string,
    testCaseName: string,
    file: CaseFile,
    storage: ScreenshotStorage,
  ): Promise<CaseArtifactRow | null> {
    return storeCaseFile(this.deps, userId, runId, testCaseName, file, storage);
  }

  /** A link to a stored screenshot's image, signed now (a run can outlast a link). */
  screenshotUrl(screenshotId: string, userId: string): string {
    return this.deps.urls.screenshot(screenshotId, userId);
  }
}

/** A stored screenshot as clients see it, with a freshly signed link to its image. */
export function toScreenshotRef(
  row: {
    id: string;
    user_id: string;
    test_run_id: string | null;
    test_case_name: string;
    step_name: string | null;
    step_index: number;
    width: number | null;
    height: number | null;
    created_at: Date;
  },
  urls: SignedUrls,
): ScreenshotRef {
  return {
    id: row.id,
    url: urls.screenshot(row.id, row.user_id),
    test_run_id: row.test_run_id,
    test_case_name: row.test_case_name,
    step_name: row.step_name,
    step_index: row.step_index,
    width: row.width,
    height: row.height,
    created_at: row.created_at.toISOString(),
  };
}

/** A run's model totals as its row stores them (nothing when no interpreter ran). */
function usageFields(usage: InterpreterUsage | undefined) {
  return usage ? { ...usage } : {};
}
