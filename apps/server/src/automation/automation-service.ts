import type { Planner } from '@argus/ai';
import type { Repositories, TestRunRow } from '@argus/db';
import { type BrowserPool, type CapturedScreenshot, explore, runTestCase } from '@argus/engine';
import type {
  ClientMessageOf,
  ScreenshotRef,
  ServerMessageInput,
  StepUpdate,
  TestCase,
} from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../errors';
import type { BlobStore } from '../services/blob-store';
import { checkSessionOwner, ownTestRun } from '../services/ownership';
import { type BrowserBudget, checkRunSize, storageQuotaError } from '../services/quotas';
import type { SignedUrls } from '../services/signed-urls';

type Send = (message: ServerMessageInput) => void;

interface Activity {
  kind: 'generating' | 'running';
  controller: AbortController;
  startedAt: number;
  runId?: string;
  done: Promise<void>;
  /** What a socket that connects now needs to follow along (automation_in_progress). */
  view: ActivityView;
  /** Browser contexts this work holds of the user's MAX_BROWSERS_PER_USER. */
  browsers: number;
}

/** A run's screenshot storage against MAX_STORED_BYTES_PER_USER: bytes counted as they are stored. */
interface Storage {
  used: number;
  limit: number;
  /** Set once the run has logged that it stopped storing screenshots. */
  full: boolean;
}

interface ActivityView {
  url: string;
  test_mode: 'full' | 'command';
  command: string | null;
  session_id: string | null;
  messages: string[];
  test_cases: TestCase[];
  results: { test_name: string; status: 'passed' | 'failed'; execution_time: number; error: string | null }[];
  active: Set<string>;
  /** Each step's latest update (no image) and its stored screenshot's id, by test and step index. */
  steps: Map<string, { test_name: string; step_data: StepUpdate; screenshot_id: string | null }>;
}

/** Steps a late socket is shown at most (a run of hundreds of tests keeps its latest). */
const KEPT_STEPS = 2000;

/** Generation messages a late socket is shown (the screen keeps as many). */
const KEPT_MESSAGES = 6;

const seconds = (ms: number) => Math.round(ms / 10) / 100;

/**
 * Generation and execution for the automation screen. The server records every run as it happens,
 * so results survive a closed tab; messages go to every open socket of the user.
 */
export class AutomationService {
  private readonly activities = new Map<string, Activity>();

  constructor(
    private readonly deps: {
      config: Config;
      repos: Repositories;
      blobs: BlobStore;
      urls: SignedUrls;
      pool: BrowserPool;
      planner: Planner;
      log: FastifyBaseLogger;
      /** MAX_BROWSERS_PER_USER, shared with every capability that holds a browser for a user. */
      browsers: BrowserBudget;
    },
  ) {}

  isBusy(userId: string): boolean {
    return this.activities.has(userId);
  }

  /** The session of the work under way: undefined when nothing is, null when it names none. */
  activeSession(userId: string): string | null | undefined {
    return this.activities.get(userId)?.view.session_id;
  }

  /** The test run the user's run under way records into, if one does. */
  activeRun(userId: string): string | undefined {
    return this.activities.get(userId)?.runId;
  }

  /** For a socket that connects while something is under way: where it stands, or null. */
  inProgress(userId: string): ServerMessageInput | null {
    const activity = this.activities.get(userId);
    if (!activity || activity.controller.signal.aborted) return null;
    const { view } = activity;
    const common = {
      url: view.url,
      test_mode: view.test_mode,
      command: view.command,
      session_id: view.session_id,
    };
    if (activity.kind === 'generating') {
      return {
        type: 'automation_in_progress',
        data: { kind: 'generating', ...common, messages: [...view.messages] },
      };
    }
    if (!activity.runId) return null;
    return {
      type: 'automation_in_progress',
      data: {
        kind: 'running',
        ...common,
        test_run_id: activity.runId,
        test_cases: view.test_cases,
        total_tests: view.test_cases.length,
        results: [...view.results],
        active_tests: [...view.active],
        // Links are signed as they are handed out: a run can outlast a link.
        steps: [...view.steps.values()].map(({ screenshot_id, ...step }) => ({
          ...step,
          screenshot_url: screenshot_id ? this.deps.urls.screenshot(screenshot_id, userId) : null,
        })),
        elapsed: seconds(Date.now() - activity.startedAt),
      },
    };
  }

  /**
   * Starts work that holds up to `browsers` browser contexts, synchronously, so two starts cannot
   * both pass the checks. Refused when the user's browsers are all busy (MAX_BROWSERS_PER_USER), and
   * while other work of theirs goes on (one generation or run per user at a time).
   */
  private begin(
    userId: string,
    kind: Activity['kind'],
    view: Omit<ActivityView, 'messages' | 'results' | 'active' | 'steps'>,
    browsers: number,
    work: (a: Activity) => Promise<void>,
  ): Activity {
    const lease = this.deps.browsers.take(userId, browsers);
    const busy = this.activities.get(userId);
    if (busy) {
      lease.release();
      throw new AppError(
        'BAD_REQUEST',
        busy.kind === 'running'
          ? 'A test run is already in progress. Stop it before starting another.'
          : 'Test cases are still being generated. Wait for them or stop first.',
      );
    }
    const activity: Activity = {
      kind,
      controller: new AbortController(),
      startedAt: Date.now(),
      done: Promise.resolve(),
      view: { ...view, messages: [], results: [], active: new Set(), steps: new Map() },
      browsers: lease.count,
    };
    this.activities.set(userId, activity);
    activity.done = work(activity).finally(() => {
      lease.release();
      if (this.activities.get(userId) === activity) this.activities.delete(userId);
    });
    return activity;
  }

  /**
   * Starts a generation. Resolves once it has begun (or throws an AppError, and nothing starts: a
   * session that is not the user's, work already under way); `done` settles when it is over.
   */
  async generate(
    userId: string,
    data: ClientMessageOf<'generate_test_cases'>['data'] & { command?: string },
    send: Send,
  ): Promise<{ done: Promise<void> }> {
    const { config, repos, pool, planner } = this.deps;
    // Checked before anything starts, so nothing is ever recorded against another user's session.
    await checkSessionOwner(repos, userId, data.session_id);
    const view = {
      url: data.url,
      test_mode: data.command ? ('command' as const) : ('full' as const),
      command: data.command ?? null,
      session_id: data.session_id ?? null,
      test_cases: [],
    };
    // Exploring takes one browser.
    const activity = this.begin(userId, 'generating', view, 1, async ({ controller, view }) => {
      const { url, command } = data;
      const progress = (message: string) => {
        view.messages = [...view.messages, message].slice(-KEPT_MESSAGES);
        send({ type: 'progress_update', data: { message } });
      };
      const started = `Exploring ${url} with the ${planner.engine} engine`;
      view.messages = [started];
      send({ type: 'generation_started', data: { url, message: started } });
      try {
        const pages = await explore(pool, url, {
          maxPages: config.exploreMaxPages,
          timeBudgetMs: config.exploreTimeBudgetMs,
          signal: controller.signal,
          onProgress: progress,
        });
        if (controller.signal.aborted) return;
        progress(`Explored ${pages.length} page${pages.length === 1 ? '' : 's'}; writing test cases`);
        // Stop aborts the planner too: it rejects with AbortedError, and nothing is recorded.
        const planned = await planner.generate(
          { url, command, pages },
          { signal: controller.signal, onProgress: progress },
        );
        const cases = this.withinRunLimits(planned, progress);
        const run = await repos.testRuns.create(userId, {
          session_id: data.session_id ?? null,
          url,
          target_url: url,
          test_suite_name: command
            ? `Command: ${command.slice(0, 200)}`
            : `Full suite for ${new URL(url).host}`,
          test_mode: command ? 'command' : 'full',
          command: command ?? null,
          engine: planner.engine,
          test_cases: cases,
          total_tests: cases.length,
          status: 'pending',
        });
        send({
          type: 'test_cases_generated',
          data: { test_cases: cases, engine: planner.engine, test_run_id: run.id },
        });
      } catch (error) {
        if (controller.signal.aborted) return;
        const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
        this.deps.log.warn({ err: error, url: data.url }, 'generation failed');
        send({ type: 'error', data: { message, code: 'GENERATION_FAILED' } });
      }
    });
    return { done: activity.done };
  }

  /**
   * run_all_tests and run_single_test: the same execution, over one case or many. Resolves once the
   * run has begun (or throws an AppError, and nothing starts); `done` settles when it is over.
   */
  async run(
    userId: string,
    data: {
      url: string;
      test_cases: TestCase[];
      test_mode: 'full' | 'command';
      command?: string | null;
      session_id?: string | null;
      test_run_id?: string | null;
    },
    send: Send,
  ): Promise<{ done: Promise<void> }> {
    const { repos, config } = this.deps;
    if (data.test_cases.length === 0) throw new AppError('BAD_REQUEST', 'No test cases to run');
    checkRunSize(data.test_cases, config);
    // Both checked before anything starts: a run is never recorded against another user's records.
    await checkSessionOwner(repos, userId, data.session_id);
    const named = data.test_run_id ? await ownTestRun(repos, userId, data.test_run_id) : undefined;
    // A run stores a screenshot per step: once the quota is used up, runs wait for room to be made.
    const storage: Storage = {
      used: await repos.testRuns.storedBytes(userId),
      limit: config.maxStoredBytesPerUser,
      full: false,
    };
    if (storage.used >= storage.limit) throw storageQuotaError(storage.used, storage.limit);
    const view = {
      url: data.url,
      test_mode: data.test_mode,
      command: data.command ?? null,
      session_id: data.session_id ?? null,
      test_cases: data.test_cases,
    };
    // One browser per test run in parallel, as many as the user may hold.
    const parallel = Math.min(config.automationParallelism, data.test_cases.length);
    const started = this.begin(userId, 'running', view, parallel, async (activity) => {
      const { controller, view } = activity;
      const cases = data.test_cases;
      const total = cases.length;
      let run: TestRunRow | undefined = named;
      const start = {
        status: 'running',
        started_at: new Date(),
        completed_at: null,
        total_tests: total,
        passed_tests: 0,
        failed_tests: 0,
        test_cases: cases,
        test_mode: data.test_mode,
        command: data.command ?? null,
      };
      run = run
        ? await repos.testRuns.update(userId, run.id, start)
        : await repos.testRuns.create(userId, {
            ...start,
            session_id: data.session_id ?? null,
            url: data.url,
            target_url: data.url,
            test_suite_name: total === 1 ? cases[0].test_name : `Suite for ${new URL(data.url).host}`,
            engine: 'builtin step executor',
          });
      if (!run) throw new Error('Could not record the test run');
      const runId = run.id;
      activity.runId = runId;
      send({ type: 'execution_started', data: { total_tests: total, test_run_id: runId } });

      let next = 0;
      let passed = 0;
      const runOne = async (index: number) => {
        const testCase = cases[index];
        const name = testCase.test_name;
        view.active.add(name);
        send({
          type: 'test_progress',
          data: { current_test: index + 1, total_tests: total, test_name: name },
        });
        const saving: Promise<ScreenshotRef | null>[] = [];
        const outcome = await runTestCase(this.deps.pool, testCase, {
          baseUrl: data.url,
          signal: controller.signal,
          stepTimeoutMs: config.stepTimeoutMs,
          testTimeoutMs: config.testTimeoutMs,
          onStep: (update, shot) => {
            send({ type: 'step_update', data: { step_data: update, test_name: name } });
            const kept = {
              test_name: name,
              // The image itself is stored; its size stays for the viewer.
              step_data: {
                ...update,
                screenshot: update.screenshot
                  ? { width: update.screenshot.width, height: update.screenshot.height }
                  : null,
              },
              screenshot_id: null as string | null,
            };
            const key = `${name}#${update.step_index ?? update.step_number}`;
            view.steps.delete(key);
            view.steps.set(key, kept);
            if (view.steps.size > KEPT_STEPS) view.steps.delete(view.steps.keys().next().value as string);
            if (shot) {
              saving.push(
                this.saveScreenshot(userId, runId, name, shot, storage).then((ref) => {
                  kept.screenshot_id = ref?.id ?? null;
                  return ref;
                }),
              );
            }
          },
        });
        const screenshots = (await Promise.all(saving)).filter((s): s is ScreenshotRef => s !== null);
        const ok = outcome.status === 'passed';
        if (ok) passed++;
        view.active.delete(name);
        view.results.push({
          test_name: name,
          status: ok ? 'passed' : 'failed',
          execution_time: outcome.executionTime,
          error: outcome.error ?? null,
        });
        await repos.testRuns.addResult(userId, runId, {
          test_case_id: testCase.id ?? null,
          test_case_name: name,
          status: outcome.status,
          execution_time: outcome.executionTime,
          error_message: outcome.error,
          steps: outcome.steps,
          logs: outcome.logs,
          screenshots: screenshots.map((s) => s.id),
        });
        await repos.testRuns.countResult(userId, runId, ok);
        await repos.testRuns.appendLog(
          userId,
          runId,
          outcome.logs.map((l) => ({ ...l, message: `[${name}] ${l.message}` })),
        );
        if (ok) {
          send({
            type: 'test_completed',
            data: {
              test_name: name,
              result: {
                status: 'passed',
                test_case: { id: testCase.id, test_name: name, description: testCase.description },
                execution_time: outcome.executionTime,
                error: null,
                screenshots,
                logs: outcome.logs,
              },
            },
          });
        } else {
          send({
            type: 'test_failed',
            data: {
              test_name: name,
              error: outcome.error ?? 'Test failed',
              execution_time: outcome.executionTime,
              screenshots,
              logs: outcome.logs,
            },
          });
        }
      };

      try {
        const workers = Array.from({ length: activity.browsers }, async () => {
          while (next < total && !controller.signal.aborted) await runOne(next++);
        });
        await Promise.all(workers);
        const executionTime = seconds(Date.now() - activity.startedAt);
        if (controller.signal.aborted) {
          // Spec §4: a run the user stopped is recorded as failed.
          await repos.testRuns.update(userId, runId, {
            status: 'failed',
            completed_at: new Date(),
            execution_time_seconds: executionTime,
          });
          await repos.testRuns.appendLog(userId, runId, [
            { timestamp: new Date().toISOString(), level: 'warn', message: 'Execution stopped by the user' },
          ]);
          send({ type: 'execution_stopped', data: { execution_time: executionTime } });
        } else {
          await repos.testRuns.update(userId, runId, {
            status: 'completed',
            completed_at: new Date(),
            execution_time_seconds: executionTime,
          });
          send({
            type: 'all_tests_completed',
            data: { total_tests: total, passed, execution_time: executionTime },
          });
        }
      } catch (error) {
        this.deps.log.error({ err: error, runId }, 'test run failed');
        await repos.testRuns
          .update(userId, runId, { status: 'error', completed_at: new Date() })
          .catch(() => undefined);
        send({
          type: 'error',
          data: { message: 'An error occurred during test execution', code: 'INTERNAL' },
        });
      }
    });
    return { done: started.done };
  }

  /**
   * The cases a generation hands out, within MAX_STEPS_PER_CASE and MAX_CASES_PER_RUN, so they can be
   * run as they are; what was left out is said in the progress messages.
   */
  private withinRunLimits(cases: TestCase[], progress: (message: string) => void): TestCase[] {
    const { maxCasesPerRun, maxStepsPerCase } = this.deps.config;
    const fit = cases.filter((c) => c.steps.length <= maxStepsPerCase);
    const long = cases.length - fit.length;
    if (long > 0) {
      progress(
        `Left out ${long} test case${long === 1 ? '' : 's'} longer than ${maxStepsPerCase} steps (MAX_STEPS_PER_CASE)`,
      );
    }
    if (fit.length <= maxCasesPerRun) return fit;
    progress(`Kept the first ${maxCasesPerRun} of ${fit.length} test cases (MAX_CASES_PER_RUN)`);
    return fit.slice(0, maxCasesPerRun);
  }

  private async saveScreenshot(
    userId: string,
    runId: string,
    testCaseName: string,
    shot: CapturedScreenshot,
    storage: Storage,
  ): Promise<ScreenshotRef | null> {
    const bytes = shot.data.length;
    if (storage.used + bytes > storage.limit) {
      // The step and its result are still recorded; its image is only shown live. Said once per run.
      if (!storage.full) {
        storage.full = true;
        const why = storageQuotaError(storage.used, storage.limit).message;
        await this.deps.repos.testRuns
          .appendLog(userId, runId, [
            {
              timestamp: new Date().toISOString(),
              level: 'warn',
              message: `Screenshots from here on are not stored. ${why}`,
            },
          ])
          .catch(() => undefined);
      }
      return null;
    }
    // Counted before the write, so tests running in parallel cannot all pass the same check.
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
        bytes: shot.data.length,
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

  /** Stops what the user has under way: `execution_stopping` at once, `execution_stopped` when it is over. */
  async stop(userId: string, send: Send): Promise<void> {
    const activity = this.activities.get(userId);
    if (!activity) {
      // Nothing runs: acknowledge, so the client clears its stop flag.
      send({ type: 'execution_stopped', data: { execution_time: 0 } });
      return;
    }
    if (activity.kind === 'running') send({ type: 'execution_stopping', data: {} });
    activity.controller.abort();
    await activity.done;
    if (activity.kind === 'generating') send({ type: 'execution_stopped', data: { execution_time: 0 } });
  }

  /** Server shutdown: abort everything; what is still running is marked interrupted. */
  async shutdown(): Promise<void> {
    const running = [...this.activities.entries()];
    for (const [, activity] of running) activity.controller.abort();
    await Promise.all(running.map(([, a]) => a.done.catch(() => undefined)));
    for (const [userId, activity] of running) {
      if (activity.runId) {
        await this.deps.repos.testRuns
          .update(userId, activity.runId, { status: 'interrupted', completed_at: new Date() })
          .catch(() => undefined);
      }
    }
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
