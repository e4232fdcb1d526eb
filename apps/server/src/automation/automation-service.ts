import { coverageOf, generateSuite, poolBrowsers, type SuiteBrowsers } from '@argus/ai';
import {
  type BrowserSession,
  BUILTIN_ENGINE,
  type CapturedScreenshot,
  type InterpreterUsage,
  type LogEntry,
  type PageObservation,
  QueuePositions,
  queuedMessage,
  type RunTestOptions,
  runTestCase,
  type SessionOpener,
  SignedInSessions,
  SignInError,
  type TestOutcome,
} from '@argus/engine';
import {
  type ClientMessageOf,
  type ScreenshotRef,
  type ServerMessageInput,
  signInFailedMessage,
  type TestCase,
} from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Activity, ActivityRegistry } from '../activity/activity-registry';
import type { Config } from '../config';
import { AppError } from '../errors';
import { checkRunSize } from '../limits/quotas';
import { addressed, type UserChannel } from '../realtime/user-channel';
import type { RunRecorder } from '../runs/run-recorder';
import { AutomationProgress, type AutomationWork, seconds } from './automation-progress';
import { AutomationVideo, type FrameSink } from './automation-video';
import { type AutomationEngine, BUILTIN_AUTOMATION_ENGINE, type EngineResolver } from './engines';
import { casesForTarget, type ProjectTargets, type WorkTarget, workTarget } from './project-target';

type Send = (message: ServerMessageInput) => void;

/** Explores what the app does by acting on it (the engine's `exploreBehaviours`, over the pool). */
export type BehaviourExplorer = NonNullable<SuiteBrowsers['exploreBehaviours']>;
/** Runs one test case in a browser context of its own (the engine's `runTestCase`, over the pool). */
export type TestExecutor = (testCase: TestCase, options: RunTestOptions) => Promise<TestOutcome>;

type Kind = 'generating' | 'running';
type AutomationActivity = Activity<AutomationProgress, Kind>;

export interface AutomationDeps {
  config: Pick<
    Config,
    | 'exploreMaxPages'
    | 'exploreTimeBudgetMs'
    | 'exploreBehaviourMaxActions'
    | 'exploreBehaviourTimeBudgetMs'
    | 'automationParallelism'
    | 'stepTimeoutMs'
    | 'testTimeoutMs'
    | 'maxCasesPerRun'
    | 'maxStepsPerCase'
  >;
  /** What is under way per user: one generation or run of automation at a time. */
  activities: ActivityRegistry;
  /** Writes the runs, results, logs and screenshots as they happen. */
  recorder: RunRecorder;
  /**
   * The browser work of a generation: explore the pages, act on the app to find behaviours (none are
   * looked for without it), and a JPEG of the start page for models that read images.
   */
  browsers: SuiteBrowsers;
  runTest: TestExecutor;
  /** The planner and step interpreter a user's work runs on (their Settings, the server's AI_*, or built-in). */
  engineFor: EngineResolver;
  log: FastifyBaseLogger;
  /**
   * The browser pool, for work on a project environment: its login signs in through it, and that
   * work's exploring and tests then open sessions signed in (docs/PROJECTS.md#sites-behind-a-login).
   */
  sessions?: SessionOpener;
  /** Where a watched run's frames go (`watchSession`): the user's sockets, here or through Redis. */
  channel?: Pick<UserChannel, 'sendFrame'>;
  /** Project environments; without it, work that names a project is refused. */
  projects?: ProjectTargets;
  /**
   * Told when a saved suite's run is over, whoever started it (screen, API, schedule): the project's
   * notifications go out from here. Its failures are logged, never the run's.
   */
  savedRunFinished?: (userId: string, runId: string) => Promise<void>;
}

/** Who or what started a run (recorded with it): the screens, the API (a token, the CLI), a schedule. */
export type RunTrigger = 'screen' | 'api' | 'schedule';

/** What a run records about the project, environment and saved suite it ran (all null for a bare URL). */
export interface RunOrigin {
  project_id: string | null;
  environment_id: string | null;
  environment_name: string | null;
  suite_id: string | null;
  suite_version: number | null;
}

/**
 * Generation and execution for the automation screen: checks a request, begins the work in the
 * activity registry, and drives generateSuite (@argus/ai, the pipeline the mutation test measures)
 * over the browser work and planner it is given, then the test executor, while the run recorder
 * writes everything as it happens (a closed tab loses nothing). Messages go to every open socket of
 * the user.
 */
export class AutomationService {
  private readonly video = new AutomationVideo();
  /** Set by `handBack`: runs take no new case. */
  private handingBack = false;
  /** Runs that ended handed back. */
  private readonly handedBack = new Set<string>();

  constructor(private readonly deps: AutomationDeps) {}

  /** `automation_video`: stream the test in focus of the user's runs to `sink`, or stop (null). */
  watchVideo(userId: string, sink: FrameSink | null): void {
    this.video.watch(userId, sink);
  }

  /** `automation_video` for a session: the frames go to the user's sockets watching it, or stop (null). */
  watchSession(userId: string, sessionId: string | null): void {
    const { channel } = this.deps;
    this.watchVideo(
      userId,
      sessionId && channel ? (frame) => channel.sendFrame(userId, sessionId, frame) : null,
    );
  }

  private current(userId: string): AutomationActivity | undefined {
    return this.deps.activities.find<AutomationProgress, Kind>(userId, 'automation');
  }

  isBusy(userId: string): boolean {
    return this.current(userId) !== undefined;
  }

  /** The session of the work under way: undefined when nothing is, null when it names none. */
  activeSession(userId: string): string | null | undefined {
    return this.current(userId)?.sessionId;
  }

  /** The test run the user's run under way records into, if one does. */
  activeRun(userId: string): string | undefined {
    return this.current(userId)?.progress.runId;
  }

  /** For a socket that connects while something is under way: where it stands, or null. */
  inProgress(userId: string): ServerMessageInput | null {
    const activity = this.current(userId);
    if (!activity || activity.signal.aborted) return null;
    const data = activity.progress.snapshot(activity.kind, activity.startedAt, (id) =>
      this.deps.recorder.screenshotUrl(id, userId),
    );
    return data ? { type: 'automation_in_progress', session_id: activity.sessionId, data } : null;
  }

  /**
   * Begins work that holds up to `browsers` browser contexts. Refused when the user's browsers are
   * all busy (MAX_BROWSERS_PER_USER), and while other automation work of theirs goes on.
   */
  private begin(
    userId: string,
    kind: Kind,
    work: AutomationWork,
    browsers: number,
    body: (activity: AutomationActivity) => Promise<void>,
  ): AutomationActivity {
    return this.deps.activities.begin(
      {
        userId,
        feature: 'automation',
        kind,
        sessionId: work.session_id,
        browsers,
        progress: new AutomationProgress(work),
        conflict: (busy) =>
          busy.feature !== 'automation'
            ? null
            : new AppError(
                'BAD_REQUEST',
                busy.kind === 'running'
                  ? 'A test run is already in progress. Stop it before starting another.'
                  : 'Test cases are still being generated. Wait for them or stop first.',
              ),
      },
      body,
    );
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
    const { config, recorder, engineFor } = this.deps;
    // Checked before anything starts, so nothing is ever recorded against another user's session.
    await recorder.checkSession(userId, data.session_id);
    const { url, command } = data;
    // A project the user does not own is refused here, before anything starts.
    const target = await workTarget(this.deps.projects, userId, data, url);
    const work: AutomationWork = {
      url,
      test_mode: command ? 'command' : 'full',
      command: command ?? null,
      session_id: data.session_id ?? null,
      test_cases: [],
    };
    // Everything the generation says is about its session.
    const emit = addressed(send, work.session_id);
    // Exploring takes one browser; behaviour replays use two at once when the user has two free.
    const activity = this.begin(
      userId,
      'generating',
      work,
      2,
      async ({ signal, progress: view, browsers }) => {
        const progress = (message: string) => {
          view.message(message);
          emit({ type: 'progress_update', data: { message } });
        };
        try {
          // Signed in first: a wrong password fails here, before any model call or exploring.
          const suiteWork = target
            ? await this.signedInBrowsers(target, signal, progress, async (message) =>
                emit({ type: 'error', data: { message, code: 'SIGN_IN_FAILED', feature: 'automation' } }),
              )
            : this.deps.browsers;
          if (!suiteWork) return;
          const { planner, usage } = await engineFor(
            userId,
            { session_id: work.session_id },
            { redact: target?.redact },
          );
          const started = `Exploring ${url} with the ${planner.engine} engine${target?.plan ? `, signed in to ${target.label}` : ''}`;
          view.message(started);
          emit({ type: 'generation_started', data: { url, message: started } });
          // The same pipeline the mutation test measures; a Stop rejects it, and nothing is recorded.
          const suite = await generateSuite(suiteWork, url, {
            planner,
            command,
            signal,
            onProgress: progress,
            maxPages: config.exploreMaxPages,
            timeBudgetMs: config.exploreTimeBudgetMs,
            behaviour: {
              concurrency: browsers,
              maxActions: config.exploreBehaviourMaxActions,
              timeBudgetMs: config.exploreBehaviourTimeBudgetMs,
              // Signed in, every session works on the same account's data on the server.
              sharedState: !!target?.plan,
            },
          });
          const { cases: planned, notice } = suite;
          if (notice) progress(notice);
          if (planned.length === 0) {
            // Nothing unrelated is handed out: the user reads why, and how to get more.
            emit({
              type: 'error',
              data: {
                message: notice ?? whyNoCases(url, suite.explored, suite.behaviours, planner.engine),
                code: 'GENERATION_FAILED',
                feature: 'automation',
              },
            });
            return;
          }
          const cases = this.withinRunLimits(target ? casesForTarget(planned, target) : planned, progress);
          const run = await recorder.create(userId, {
            ...originOf(target),
            session_id: work.session_id,
            url,
            target_url: url,
            test_suite_name: command
              ? `Command: ${command.slice(0, 200)}`
              : `Full suite for ${new URL(url).host}`,
            test_mode: work.test_mode,
            command: work.command,
            engine: planner.engine,
            test_cases: cases,
            total_tests: cases.length,
            status: 'pending',
          });
          emit({
            type: 'test_cases_generated',
            data: {
              test_cases: cases,
              engine: planner.engine,
              test_run_id: run.id,
              usage: usage?.(),
              ...(suite.exploration ? { exploration: suite.exploration } : {}),
              ...(suite.coverage ? { command_coverage: coverageOf(suite.coverage, cases) } : {}),
            },
          });
        } catch (error) {
          if (signal.aborted) return;
          const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
          this.deps.log.warn({ err: error, url }, 'generation failed');
          emit({ type: 'error', data: { message, code: 'GENERATION_FAILED', feature: 'automation' } });
        }
      },
    );
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
      project_id?: string | null;
      environment_id?: string | null;
      /** A saved suite's run: which suite and version it ran (recorded with the run). */
      suite?: { id: string; version: number; name: string } | null;
      /** @default 'screen' */
      trigger?: RunTrigger;
      /** How many times a failed case runs again (docs/HISTORY.md#retries). @default 0 */
      retries?: number;
      /**
       * `test_run_id` is a run whose worker stopped mid-way (docs/DEPLOYMENT.md#how-work-flows): its
       * recorded cases stay and are not run again; the others run. @default false
       */
      resume?: boolean;
    },
    send: Send,
  ): Promise<{ done: Promise<void>; runId: Promise<string | null> }> {
    const { recorder, config } = this.deps;
    if (data.test_cases.length === 0) throw new AppError('BAD_REQUEST', 'No test cases to run');
    checkRunSize(data.test_cases, config);
    // All checked before anything starts: a run is never recorded against another user's records.
    await recorder.checkSession(userId, data.session_id);
    const target = await workTarget(this.deps.projects, userId, data, data.url);
    const named = data.test_run_id ? await recorder.ownRun(userId, data.test_run_id) : undefined;
    // A run stores a screenshot per step: once the quota is used up, runs wait for room to be made.
    const storage = await recorder.openStorage(userId);
    const cases = data.test_cases;
    const retries = Math.max(0, Math.floor(data.retries ?? 0));
    const work: AutomationWork = {
      url: data.url,
      test_mode: data.test_mode,
      command: data.command ?? null,
      session_id: data.session_id ?? null,
      test_cases: cases,
    };
    // Everything the run says is about its session.
    const emit = addressed(send, work.session_id);
    // One browser per test run in parallel, as many as the user may hold.
    const parallel = Math.min(config.automationParallelism, cases.length);
    let recorded: (id: string | null) => void = () => {};
    const runId = new Promise<string | null>((resolve) => {
      recorded = resolve;
    });
    // Resumed: the cases its first worker recorded, by name, with their verdicts.
    const resuming = Boolean(data.resume && named);
    const already =
      resuming && named ? await recorder.recordedCases(userId, named.id) : new Map<string, string>();
    const activity = this.begin(userId, 'running', work, parallel, async (activity) => {
      const { signal, progress: view } = activity;
      const total = cases.length;
      const runId = await recorder.start(
        userId,
        named,
        {
          test_cases: cases,
          test_mode: work.test_mode,
          command: work.command,
          ...originOf(target, data.suite),
        },
        {
          session_id: work.session_id,
          url: data.url,
          target_url: data.url,
          test_suite_name: data.suite
            ? savedRunName(data.suite, target?.environment.name)
            : total === 1
              ? cases[0].test_name
              : `Suite for ${new URL(data.url).host}`,
          engine: BUILTIN_ENGINE,
          trigger: data.trigger ?? 'screen',
        },
        resuming,
      );
      recorded(runId);
      view.runId = runId;
      const progress = (message: string) => {
        view.message(message);
        emit({ type: 'progress_update', data: { message } });
      };
      if (resuming) {
        progress(`Resumed after its worker stopped: ${already.size} of ${total} tests were already recorded`);
        await recorder.note(
          userId,
          runId,
          `Resumed on another worker: ${already.size} of ${total} tests were already recorded and are not run again`,
          'warn',
        );
      }
      if (target)
        await recorder.note(userId, runId, `Environment: ${target.label} (${target.environment.base_url})`);
      // Signed in once, before any test: a wrong password fails the run here, with what the page showed.
      let signedIn: SignedInSessions | null = null;
      if (target) {
        signedIn = await this.signIn(target, signal, progress, async (message, error) => {
          await recorder.note(userId, runId, message, 'warn');
          if (error.screenshot) {
            const shot = { step_index: 0, step_name: 'Sign in', ...error.screenshot };
            await recorder.saveScreenshot(userId, runId, 'Sign in', shot, storage).catch(() => null);
          }
          await recorder.failed(userId, runId);
          emit({ type: 'error', data: { message, code: 'SIGN_IN_FAILED', feature: 'automation' } });
        });
        if (!signedIn) return;
      }
      const sessions = signedIn;
      const runTest: TestExecutor = sessions
        ? (testCase, options) =>
            runTestCase(sessions, testCase, {
              ...options,
              variables: target?.variables,
              renewal: sessions.renewal,
              viewport: target?.viewport,
            })
        : this.deps.runTest;
      const engine = await this.runEngine(
        userId,
        work.session_id,
        runId,
        (message) => emit({ type: 'progress_update', data: { message } }),
        target?.redact,
      );
      await recorder.note(userId, runId, `Steps run by: ${engine.runEngine}`);
      emit({
        type: 'execution_started',
        data: { total_tests: total, test_run_id: runId, engine: engine.runEngine },
      });
      const usage: InterpreterUsage = { model_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 };

      let next = 0;
      let passed = 0;
      let flakyCount = 0;
      // While its tests wait for browsers (MAX_BROWSERS, shared by every user), the run says its place in line.
      const line = new QueuePositions((position) => {
        const message = queuedMessage(position);
        view.message(message);
        emit({ type: 'progress_update', data: { message } });
      });
      const maxAttempts = 1 + retries;
      /**
       * One attempt at a case, in a browser context of its own (a retry starts as fresh as a first
       * attempt). Its screenshots are stored as its steps report them when no retry can follow;
       * otherwise they are held until the attempt is over, stored if it is the case's last one and
       * dropped if it is retried, so a case keeps only its final attempt's steps and screenshots.
       */
      const attemptOnce = async (testCase: TestCase, last: boolean) => {
        const name = testCase.test_name;
        const held: { shot: CapturedScreenshot; stored: (id: string | null) => void }[] = [];
        const saving: Promise<ScreenshotRef | null>[] = [];
        const save = (shot: CapturedScreenshot, stored: (id: string | null) => void) =>
          recorder.saveScreenshot(userId, runId, name, shot, storage).then((ref) => {
            stored(ref?.id ?? null);
            return ref;
          });
        let browser: BrowserSession | undefined;
        // The test holds its browser from onSession until runTest settles.
        const request = line.request();
        const outcome = await runTest(testCase, {
          onQueued: request.onQueued,
          onSession: (session) => {
            request.granted();
            browser = session;
            this.video.testStarted(userId, session);
          },
          baseUrl: data.url,
          signal,
          stepTimeoutMs: config.stepTimeoutMs,
          testTimeoutMs: config.testTimeoutMs,
          interpreter: engine.interpreter,
          onStep: (update, shot) => {
            emit({ type: 'step_update', data: { step_data: update, test_name: name } });
            const stored = view.step(name, update);
            if (!shot) return;
            if (last) saving.push(save(shot, stored));
            else held.push({ shot, stored });
          },
        }).finally(request.over);
        this.video.testEnded(userId, browser);
        for (const key of Object.keys(usage) as (keyof InterpreterUsage)[]) usage[key] += outcome.usage[key];
        const final = last || outcome.status === 'passed' || signal.aborted;
        if (final) for (const { shot, stored } of held) saving.push(save(shot, stored));
        const screenshots = (await Promise.all(saving)).filter((s): s is ScreenshotRef => s !== null);
        return { outcome, screenshots, final };
      };

      const runOne = async (index: number) => {
        const testCase = cases[index];
        const name = testCase.test_name;
        const before = already.get(name);
        if (before !== undefined) {
          // Recorded before the run was resumed: counted, not run (or recorded) again.
          if (before === 'passed') passed++;
          else if (before === 'flaky') flakyCount++;
          return;
        }
        view.testStarted(name);
        emit({
          type: 'test_progress',
          data: { current_test: index + 1, total_tests: total, test_name: name },
        });
        // docs/HISTORY.md#retries: a failed case (not a stopped one) runs again, up to `retries` times.
        let attempt = 1;
        let time = 0;
        const failures: LogEntry[] = [];
        let tried = await attemptOnce(testCase, maxAttempts === 1);
        time += tried.outcome.executionTime;
        while (!tried.final) {
          failures.push({
            timestamp: new Date().toISOString(),
            level: 'warn',
            message: `Attempt ${attempt} of ${maxAttempts} failed: ${tried.outcome.error ?? 'Test failed'}`,
          });
          attempt++;
          progress(`Retrying ${name} (attempt ${attempt} of ${maxAttempts})`);
          view.testRetrying(name);
          emit({
            type: 'test_progress',
            data: {
              current_test: index + 1,
              total_tests: total,
              test_name: name,
              attempt,
              max_attempts: maxAttempts,
            },
          });
          tried = await attemptOnce(testCase, attempt === maxAttempts);
          time += tried.outcome.executionTime;
        }
        const { screenshots } = tried;
        // The case's time is every attempt's; its steps, logs and screenshots are the final attempt's,
        // after a line per failed attempt saying why it failed.
        const outcome: TestOutcome = {
          ...tried.outcome,
          executionTime: Math.round(time * 100) / 100,
          logs: [...failures, ...tried.outcome.logs],
        };
        const ok = outcome.status === 'passed';
        const flaky = ok && attempt > 1;
        if (flaky) flakyCount++;
        else if (ok) passed++;
        view.testFinished(name, {
          passed: ok,
          executionTime: outcome.executionTime,
          error: outcome.error ?? null,
          attempts: attempt,
        });
        await recorder.recordResult(userId, runId, testCase, outcome, screenshots, attempt);
        const attempts = maxAttempts > 1 ? { attempts: attempt } : {};
        if (ok) {
          emit({
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
              ...(flaky ? { flaky: true } : {}),
              ...(maxAttempts > 1 ? { attempts: attempt, max_attempts: maxAttempts } : {}),
            },
          });
        } else {
          emit({
            type: 'test_failed',
            data: {
              test_name: name,
              error: outcome.error ?? 'Test failed',
              execution_time: outcome.executionTime,
              screenshots,
              logs: outcome.logs,
              ...attempts,
            },
          });
        }
      };

      try {
        const workers = Array.from({ length: activity.browsers }, async () => {
          while (next < total && !signal.aborted && !this.handingBack) await runOne(next++);
        });
        await Promise.all(workers);
        const executionTime = seconds(Date.now() - activity.startedAt);
        if (!signal.aborted && this.handingBack && next < total) {
          // Its worker is stopping: the cases under way are recorded; the rest run where the job goes next.
          this.handedBack.add(runId);
          const recordedCount = (await recorder.recordedCases(userId, runId)).size;
          progress(`Handed to another worker: ${recordedCount} of ${total} tests recorded`);
          await recorder.note(
            userId,
            runId,
            `Handed back to the queue by a stopping worker: ${recordedCount} of ${total} tests recorded`,
            'warn',
          );
          return;
        }
        if (signal.aborted) {
          await recorder.stopped(userId, runId, executionTime, usage);
          emit({
            type: 'execution_stopped',
            data: { execution_time: executionTime, ...(engine.interpreter ? { usage } : {}) },
          });
        } else {
          await recorder.complete(userId, runId, executionTime, usage);
          emit({
            type: 'all_tests_completed',
            data: {
              total_tests: total,
              passed,
              ...(flakyCount > 0 ? { flaky: flakyCount } : {}),
              execution_time: executionTime,
              engine: engine.runEngine,
              usage,
            },
          });
        }
      } catch (error) {
        this.deps.log.error({ err: error, runId }, 'test run failed');
        // The database may be what failed (unreachable past DATABASE_RETRY_MS): the user is told all the
        // same, and the run left running is marked by the sweep of runs whose job is lost
        // (docs/DEPLOYMENT.md#postgresql).
        await recorder
          .failed(userId, runId)
          .catch((cause: unknown) =>
            this.deps.log.error({ err: cause, runId }, 'a failed run could not be recorded as failed'),
          );
        emit({
          type: 'error',
          data: {
            message: 'An error occurred during test execution',
            code: 'INTERNAL',
            feature: 'automation',
          },
        });
      }
    });
    activity.done.finally(() => recorded(null)).catch(() => {});
    return { done: activity.done, runId };
  }

  /**
   * Runs a project's saved suite on one of its environments (the default when none is named): the
   * suite's relative URLs resolve against the environment's base URL. Answers once the run is recorded.
   */
  async runSavedSuite(
    userId: string,
    ids: {
      project_id: string;
      suite_id: string;
      environment_id?: string | null;
      trigger?: RunTrigger;
      /** A run row made for it already (`prepareSavedRun`), which it records into. */
      test_run_id?: string | null;
      /** That run's worker stopped mid-way: resume it (`run`'s `resume`). */
      resume?: boolean;
    },
    send: Send,
  ): Promise<{ test_run_id: string; environment_id: string; environment_name: string; done: Promise<void> }> {
    const { projects } = this.deps;
    if (!projects) throw new AppError('NOT_IMPLEMENTED', 'Projects are not available on this server');
    const suite = await projects.getSuite(userId, ids.project_id, ids.suite_id);
    const { environment } = await projects.target(userId, ids.project_id, ids.environment_id);
    const { done, runId } = await this.run(
      userId,
      {
        url: environment.base_url,
        test_cases: suite.test_cases,
        test_mode: 'full',
        project_id: ids.project_id,
        environment_id: environment.id,
        suite: { id: suite.id, version: suite.version, name: suite.name },
        trigger: ids.trigger,
        retries: suite.retries,
        test_run_id: ids.test_run_id ?? null,
        resume: ids.resume,
      },
      send,
    );
    const id = await runId;
    if (!id) throw new AppError('INTERNAL', 'The run could not be recorded');
    const { savedRunFinished, log } = this.deps;
    const over = savedRunFinished
      ? done.finally(() =>
          savedRunFinished(userId, id).catch((error: unknown) =>
            log.error({ err: error, runId: id }, 'after a saved suite run'),
          ),
        )
      : done;
    return {
      test_run_id: id,
      environment_id: environment.id,
      environment_name: environment.name,
      done: over,
    };
  }

  /**
   * The run row of a saved suite's run, made before the run starts (pending), with what the run will
   * record: queued work answers with its id at once (scale/queued-automation.ts), and the run records
   * into it when a worker takes it (`runSavedSuite` with `test_run_id`).
   */
  async prepareSavedRun(
    userId: string,
    ids: { project_id: string; suite_id: string; environment_id?: string | null; trigger?: RunTrigger },
  ): Promise<{ test_run_id: string; environment_id: string; environment_name: string }> {
    const { projects, recorder } = this.deps;
    if (!projects) throw new AppError('NOT_IMPLEMENTED', 'Projects are not available on this server');
    const suite = await projects.getSuite(userId, ids.project_id, ids.suite_id);
    const { environment } = await projects.target(userId, ids.project_id, ids.environment_id);
    const id = await recorder.prepare(userId, {
      url: environment.base_url,
      target_url: environment.base_url,
      test_suite_name: savedRunName(suite, environment.name),
      test_cases: suite.test_cases,
      trigger: ids.trigger ?? 'screen',
      project_id: ids.project_id,
      environment_id: environment.id,
      environment_name: environment.name,
      suite_id: suite.id,
      suite_version: suite.version,
    });
    return { test_run_id: id, environment_id: environment.id, environment_name: environment.name };
  }

  /**
   * For a generation on a project environment: signs in (when the project has a login) and answers the
   * browser work over sessions that start signed in; null when signing in failed (said to the user).
   */
  private async signedInBrowsers(
    target: WorkTarget,
    signal: AbortSignal,
    progress: (message: string) => void,
    fail: (message: string, error: SignInError) => Promise<void>,
  ): Promise<SuiteBrowsers | null> {
    const sessions = await this.signIn(target, signal, progress, fail);
    return sessions ? poolBrowsers(sessions) : null;
  }

  /** Signs in to the target (nothing to do without a login); null, once the failure is said, when it fails. */
  private async signIn(
    target: WorkTarget,
    signal: AbortSignal,
    progress: (message: string) => void,
    fail: (message: string, error: SignInError) => Promise<void>,
  ): Promise<SignedInSessions | null> {
    if (!this.deps.sessions)
      throw new AppError('NOT_IMPLEMENTED', 'Projects are not available on this server');
    const sessions = new SignedInSessions(this.deps.sessions, target.plan, {
      baseUrl: target.environment.base_url,
      variables: target.variables,
      viewport: target.viewport,
      signal,
    });
    if (target.plan) progress(`Signing in to ${target.label}`);
    try {
      await sessions.start();
    } catch (error) {
      if (!(error instanceof SignInError) || signal.aborted) throw error;
      const message = signInFailedMessage(target.project.name, target.environment.name, error.message);
      this.deps.log.info(
        { project: target.project.id, environment: target.environment.id },
        'sign-in failed',
      );
      await fail(message, error);
      return null;
    }
    if (target.plan) progress(`Signed in to ${target.label}`);
    return sessions;
  }

  /**
   * The engine a run's steps use. A model the user's Settings name that cannot be used as it stands
   * (no model named, a base URL now refused) does not stop a run of step-language lines: it runs on
   * the built-in engine, and the user reads why free-form steps will fail.
   */
  private async runEngine(
    userId: string,
    sessionId: string | null,
    runId: string,
    progress: (message: string) => void,
    redact?: (text: string) => string,
  ): Promise<AutomationEngine> {
    try {
      return await this.deps.engineFor(userId, { session_id: sessionId, test_run_id: runId }, { redact });
    } catch (error) {
      const message = `The model in your Settings cannot be used (${error instanceof Error ? error.message : String(error)}); this run uses the built-in engine, so free-form steps fail and expected results are not judged.`;
      progress(message);
      await this.deps.recorder.note(userId, runId, message, 'warn');
      return BUILTIN_AUTOMATION_ENGINE;
    }
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

  /**
   * Stops what the user has under way: `execution_stopping` at once, `execution_stopped` when it is
   * over, both about the stopped work's session (or, when nothing runs, the one the request named).
   */
  async stop(userId: string, send: Send, requestedSession: string | null = null): Promise<void> {
    const activity = this.current(userId);
    if (!activity) {
      // Nothing runs: acknowledge, so the client clears its stop flag.
      addressed(send, requestedSession)({ type: 'execution_stopped', data: { execution_time: 0 } });
      return;
    }
    const emit = addressed(send, activity.sessionId);
    if (activity.kind === 'running') emit({ type: 'execution_stopping', data: {} });
    await this.deps.activities.stop(activity);
    if (activity.kind === 'generating') emit({ type: 'execution_stopped', data: { execution_time: 0 } });
  }

  /**
   * A worker's SIGTERM (docs/DEPLOYMENT.md#a-worker-that-stops): every run takes no new case; once the
   * cases under way are recorded, a run with cases left ends without a verdict, its row still running,
   * and `wasHandedBack` says so, for its job to go back to the queue. Generations go on to their end.
   */
  handBack(): void {
    this.handingBack = true;
  }

  /** Whether the run ended handed back by `handBack` (its job goes back to the queue). */
  wasHandedBack(runId: string): boolean {
    return this.handedBack.has(runId);
  }

  /** Server shutdown: abort everything; runs still going are marked interrupted. */
  async shutdown(): Promise<void> {
    const stopped = (await this.deps.activities.shutdown('automation')) as AutomationActivity[];
    for (const activity of stopped) {
      const { runId } = activity.progress;
      if (runId) await this.deps.recorder.interrupted(activity.userId, runId);
    }
  }
}

/** What a saved suite's run is called in the history: the suite, its version and the environment. */
export function savedRunName(
  suite: { name: string; version: number },
  environment: string | undefined,
): string {
  return `${suite.name} (v${suite.version}) on ${environment}`;
}

/** The project fields a run records: the target's project and environment, and the saved suite if any. */
function originOf(target: WorkTarget | null, suite?: { id: string; version: number } | null): RunOrigin {
  return {
    project_id: target?.project.id ?? null,
    environment_id: target?.environment.id ?? null,
    environment_name: target?.environment.name ?? null,
    suite_id: suite?.id ?? null,
    suite_version: suite?.version ?? null,
  };
}

/**
 * Why a generation handed out nothing, when the planner did not say: what was explored, so the user
 * reads the real cause (nothing explored, an empty page, or the engine) rather than a verdict on the page.
 */
export function whyNoCases(
  url: string,
  pages: PageObservation[],
  behaviours: number,
  engine: string,
): string {
  if (pages.length === 0) {
    return `Nothing was explored at ${url}: no page could be read before the generation ended. Try again.`;
  }
  const [start] = pages;
  const none = (items: unknown[] | undefined) => !items?.length;
  const empty =
    pages.length === 1 &&
    none(start.headings) &&
    none(start.links) &&
    none(start.forms) &&
    none(start.buttons) &&
    none(start.listItems) &&
    none(start.tables);
  if (empty) {
    return `${start.url ?? url} opened but showed nothing to act on or check (no headings, links, forms, buttons, lists or tables), and it links to no other page.`;
  }
  const found = `${pages.length} page${pages.length === 1 ? '' : 's'} and ${behaviours} behaviour${behaviours === 1 ? '' : 's'}`;
  return `The ${engine} engine wrote no test cases from the ${found} explored at ${url}. Try again, or name what to test in a command.`;
}
