import { QueuePositions, queuedMessage } from '@argus/engine';
import type { ClientMessageOf, ServerMessageInput } from '@argus/protocol';
import { AppError } from '../errors';
import type { Send } from '../realtime/user-channel';
import type { AutomationActivity, AutomationDeps, AutomationKind, Progress } from './automation-deps';
import { AutomationMessages, inProgressMessage } from './automation-messages';
import { AutomationProgress, type AutomationWork } from './automation-progress';
import { AutomationVideo, type FrameSink } from './automation-video';
import { runCases, type Tally } from './case-pool';
import { checkGeneration, generateCases } from './generation';
import type { CaseContext, RunContext } from './run-context';
import { type RunControl, UNCONTROLLED } from './run-control';
import { endRun, runFailed } from './run-end';
import { checkRun, type RunData, type RunRequest, type StartedRun } from './run-request';
import { prepareRun, recordRun } from './run-start';
import { type SavedRunIds, SavedSuiteRuns } from './saved-suite-runs';

export type {
  AutomationDeps,
  BehaviourExplorer,
  RunTrigger,
  TestExecutor,
} from './automation-deps';
export { whyNoCases } from './generation';
export type { RunControl, RunNotice } from './run-control';
export { type RunOrigin, savedRunName } from './run-origin';

/**
 * Generation and execution for the automation screen: checks a request, begins the work in the
 * activity registry, and drives generateSuite (@argus/ai, the pipeline the mutation test measures)
 * over the browser work and planner it is given, then the test executor, while the run recorder
 * writes everything as it happens (a closed tab loses nothing). Messages go to every open socket of
 * the user.
 *
 * It orchestrates; each job is a file of this folder: generation.ts; for a run, run-request.ts (its
 * checks), run-start.ts (record, sign in, engine), case-pool.ts (the cases side by side),
 * case-attempts.ts (a case's retries and their screenshots), run-end.ts; saved-suite-runs.ts; and
 * automation-messages.ts for every message the user's sockets are sent. A run may be steered from
 * outside by a `RunControl` (run-control.ts): resumed, or handed back part-way.
 */
export class AutomationService {
  private readonly video = new AutomationVideo();
  private readonly savedSuites: SavedSuiteRuns;

  constructor(private readonly deps: AutomationDeps) {
    this.savedSuites = new SavedSuiteRuns(deps, (userId, data, send, control) =>
      this.run(userId, data, send, control),
    );
  }

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
    return this.deps.activities.find<AutomationProgress, AutomationKind>(userId, 'automation');
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
    return data ? inProgressMessage(activity.sessionId, data) : null;
  }

  /**
   * Begins work that holds up to `browsers` browser contexts. Refused when the user's browsers are
   * all busy (MAX_BROWSERS_PER_USER), and while other automation work of theirs goes on.
   */
  private begin(
    userId: string,
    kind: AutomationKind,
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
    const request = await checkGeneration(this.deps, userId, data);
    // Everything the generation says is about its session.
    const say = new AutomationMessages(send, request.work.session_id);
    // Exploring takes one browser; behaviour replays use two at once when the user has two free.
    const activity = this.begin(userId, 'generating', request.work, 2, (activity) =>
      generateCases(this.deps, request, activity, say),
    );
    return { done: activity.done };
  }

  /**
   * run_all_tests and run_single_test: the same execution, over one case or many. Resolves once the
   * run has begun (or throws an AppError, and nothing starts); `done` settles when it is over.
   * `control` steers it from outside: a run resumed, or handed back part-way (run-control.ts).
   */
  async run(
    userId: string,
    data: RunData,
    send: Send,
    control: RunControl = UNCONTROLLED,
  ): Promise<StartedRun> {
    const request = await checkRun(this.deps, userId, data, control);
    // Everything the run says is about its session.
    const say = new AutomationMessages(send, request.work.session_id);
    // One browser per test run in parallel, as many as the user may hold.
    const parallel = Math.min(this.deps.config.automationParallelism, request.cases.length);
    let recorded: (id: string | null) => void = () => {};
    const runId = new Promise<string | null>((resolve) => {
      recorded = resolve;
    });
    const activity = this.begin(userId, 'running', request.work, parallel, (activity) =>
      this.execute(request, activity, say, control, recorded),
    );
    activity.done.finally(() => recorded(null)).catch(() => {});
    return { done: activity.done, runId };
  }

  /** The run, as its activity's body: recorded, prepared, its cases side by side, then its end. */
  private async execute(
    request: RunRequest,
    activity: AutomationActivity,
    say: AutomationMessages,
    control: RunControl,
    recorded: (runId: string) => void,
  ): Promise<void> {
    const runId = await recordRun(this.deps, request);
    recorded(runId);
    const view = activity.progress;
    view.runId = runId;
    const progress: Progress = (message) => {
      view.message(message);
      say.progress(message);
    };
    const run: RunContext = { deps: this.deps, request, runId, activity, say, control, progress };
    const ready = await prepareRun(run);
    if (!ready) return;
    const ctx: CaseContext = {
      ...run,
      ...ready,
      usage: { model_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 },
      video: this.video,
      line: new QueuePositions((position) => progress(queuedMessage(position))),
    };
    const tally: Tally = { passed: 0, flaky: 0 };
    try {
      const taken = await runCases(ctx, tally);
      await endRun(ctx, taken, tally);
    } catch (error) {
      await runFailed(ctx, error);
    }
  }

  /**
   * Runs a project's saved suite on one of its environments (the default when none is named): the
   * suite's relative URLs resolve against the environment's base URL. Answers once the run is recorded.
   */
  runSavedSuite(
    userId: string,
    ids: SavedRunIds & {
      /** A run row made for it already (`prepareSavedRun`), which it records into. */
      test_run_id?: string | null;
    },
    send: Send,
    control?: RunControl,
  ) {
    return this.savedSuites.run(userId, ids, send, control);
  }

  /**
   * The run row of a saved suite's run, made before the run starts (pending), with what the run will
   * record: a run queued to start later is answered with its id at once, and records into it when it
   * starts (`runSavedSuite` with `test_run_id`).
   */
  prepareSavedRun(userId: string, ids: SavedRunIds) {
    return this.savedSuites.prepare(userId, ids);
  }

  /**
   * Stops what the user has under way: `execution_stopping` at once, `execution_stopped` when it is
   * over, both about the stopped work's session (or, when nothing runs, the one the request named).
   */
  async stop(userId: string, send: Send, requestedSession: string | null = null): Promise<void> {
    const activity = this.current(userId);
    if (!activity) {
      // Nothing runs: acknowledge, so the client clears its stop flag.
      new AutomationMessages(send, requestedSession).stopped(0);
      return;
    }
    const say = new AutomationMessages(send, activity.sessionId);
    if (activity.kind === 'running') say.stopping();
    await this.deps.activities.stop(activity);
    if (activity.kind === 'generating') say.stopped(0);
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
