import { QueuePositions, queuedMessage } from '@argus/engine';
import type { ClientMessageOf, ServerMessageInput } from '@argus/protocol';
import type { Send } from '../realtime/user-channel';
import type { Actor, AutomationActivity, AutomationDeps, AutomationKind, Progress } from './automation-deps';
import { AutomationMessages, inProgressMessage } from './automation-messages';
import type { AutomationProgress } from './automation-progress';
import { AutomationVideo, type FrameSink } from './automation-video';
import { runCases, type Tally } from './case-pool';
import { checkGeneration, generateCases } from './generation';
import type { CaseContext, RunContext } from './run-context';
import { type RunControl, UNCONTROLLED } from './run-control';
import { endRun, runFailed } from './run-end';
import { checkRun, type RunData, type RunRequest, type StartedRun } from './run-request';
import { prepareRun, recordRun, visualsOf } from './run-start';
import { type SavedRunIds, SavedSuiteRuns } from './saved-suite-runs';
import { type WaitingWork, WorkTurns } from './work-turns';

export type {
  Actor,
  AutomationDeps,
  BehaviourExplorer,
  RunTrigger,
  TestExecutor,
} from './automation-deps';
export { whyNoCases } from './generation';
export type { RunControl, RunNotice } from './run-control';
export { type RunOrigin, savedRunName } from './run-origin';

/**
 * Generation and execution for the automation screen: checks a request, puts the work in its
 * organization's line (work-turns.ts; it waits its turn, told its place, never refused for being
 * busy), begins it in the activity registry when its turn comes, and drives generateSuite (@argus/ai, the pipeline the mutation test measures)
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
  private readonly turns: WorkTurns;

  constructor(private readonly deps: AutomationDeps) {
    this.turns = new WorkTurns(deps);
    this.savedSuites = new SavedSuiteRuns(deps, (actor, data, send, control) =>
      this.run(actor, data, send, control),
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

  /** The user's automation work going, oldest first. */
  private going(userId: string): AutomationActivity[] {
    return this.deps.activities.list(userId, { feature: 'automation' }) as AutomationActivity[];
  }

  /** Whether the user has automation work going or waiting its turn. */
  isBusy(userId: string): boolean {
    return this.current(userId) !== undefined || this.turns.waitingOf(userId).length > 0;
  }

  /** The session of the work under way (else waiting): undefined when nothing is, null when it names none. */
  activeSession(userId: string): string | null | undefined {
    return this.current(userId)?.sessionId ?? this.turns.waitingOf(userId)[0]?.sessionId;
  }

  /** The test run the user's (first) run under way records into, if one does. */
  activeRun(userId: string): string | undefined {
    return this.current(userId)?.progress.runId;
  }

  /** How many start before the run recorded as `runId` while it waits its turn; null when it does not wait. */
  queuePlace(runId: string): number | null {
    return this.turns.placeOfRun(runId);
  }

  /** For a socket that connects while something is under way or waiting: where it stands, or null. */
  inProgress(userId: string): ServerMessageInput | null {
    const activity = this.current(userId);
    if (!activity || activity.signal.aborted) return this.turns.queuedMessage(userId);
    const data = activity.progress.snapshot(activity.kind, activity.startedAt, (id) =>
      this.deps.recorder.screenshotUrl(id, activity.progress.work.ownerId),
    );
    return data ? inProgressMessage(activity.sessionId, data) : null;
  }

  /**
   * Browsers one piece of work would like: `wanted`, within MAX_BROWSERS_PER_USER. It waits its turn
   * in its organization's line for them (never refused), then starts with what is free, at least one.
   */
  private browsersFor(wanted: number): number {
    return Math.max(1, Math.min(wanted, this.deps.config.maxBrowsersPerUser));
  }

  /**
   * Starts a generation, or puts it in line. Resolves once it has begun or waits its turn (or throws
   * an AppError, and nothing starts: a session that is not the user's); `done` settles when it is over.
   */
  async generate(
    actor: Actor,
    data: ClientMessageOf<'generate_test_cases'>['data'] & { command?: string },
    send: Send,
  ): Promise<{ done: Promise<void> }> {
    const request = await checkGeneration(this.deps, actor, data);
    // Everything the generation says is about its session.
    const say = new AutomationMessages(send, request.work.session_id);
    // Exploring takes one browser; behaviour replays use two at once when two are free.
    return this.turns.take(
      actor,
      { kind: 'generating', work: request.work, browsers: this.browsersFor(2), say },
      (activity) => generateCases(this.deps, request, activity, say),
    );
  }

  /**
   * run_all_tests and run_single_test: the same execution, over one case or many. Resolves once the
   * run has begun or waits its turn (or throws an AppError, and nothing starts); `done` settles when
   * it is over. `control` steers it from outside: a run resumed, or handed back part-way (run-control.ts).
   */
  async run(
    actor: Actor,
    data: RunData,
    send: Send,
    control: RunControl = UNCONTROLLED,
  ): Promise<StartedRun> {
    const request = await checkRun(this.deps, actor, data, control);
    // Everything the run says is about its session.
    const say = new AutomationMessages(send, request.work.session_id);
    // One browser per test run in parallel.
    const parallel = Math.min(this.deps.config.automationParallelism, request.cases.length);
    let recorded: (id: string | null) => void = () => {};
    const runId = new Promise<string | null>((resolve) => {
      recorded = resolve;
    });
    const { done } = this.turns.take(
      actor,
      {
        kind: 'running',
        work: request.work,
        browsers: this.browsersFor(parallel),
        runId: request.named?.id ?? null,
        say,
      },
      (activity) => this.execute(request, activity, say, control, recorded),
    );
    done.finally(() => recorded(null)).catch(() => {});
    return { done, runId };
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
      visuals: visualsOf(this.deps, request, runId),
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
   * suite's relative URLs resolve against the environment's base URL. Answers once the run is recorded
   * (pending while it waits its turn).
   */
  runSavedSuite(
    actor: Actor,
    ids: SavedRunIds & {
      /** A run row made for it already (`prepareSavedRun`), which it records into. */
      test_run_id?: string | null;
    },
    send: Send,
    control?: RunControl,
  ) {
    return this.savedSuites.run(actor, ids, send, control);
  }

  /**
   * The run row of a saved suite's run, made before the run starts (pending), with what the run will
   * record: a run queued to start later is answered with its id at once, and records into it when it
   * starts (`runSavedSuite` with `test_run_id`).
   */
  prepareSavedRun(actor: Actor, ids: SavedRunIds) {
    return this.savedSuites.prepare(actor, ids);
  }

  /**
   * Stops the user's work of the session the request named (going or waiting its turn), else their
   * first work: `execution_stopping` at once for a run going, `execution_stopped` when it is over,
   * each about the stopped work's session (or, when nothing runs or waits, the one the request named).
   * Work that only waited leaves the line and never starts.
   */
  async stop(userId: string, send: Send, requestedSession: string | null = null): Promise<void> {
    const going = this.going(userId);
    const waiting = this.turns.waitingOf(userId);
    const named = (work: { sessionId: string | null }) =>
      requestedSession !== null && work.sessionId === requestedSession;
    let stopGoing = going.filter(named);
    let stopWaiting = waiting.filter(named);
    if (stopGoing.length + stopWaiting.length === 0) {
      stopGoing = going.slice(0, 1);
      stopWaiting = stopGoing.length > 0 ? [] : waiting.slice(0, 1);
    }
    if (stopGoing.length + stopWaiting.length === 0) {
      // Nothing runs: acknowledge, so the client clears its stop flag.
      new AutomationMessages(send, requestedSession).stopped(0);
      return;
    }
    for (const work of stopWaiting) {
      if (!work.ticket.leave()) continue;
      await this.leftLine(work);
      new AutomationMessages(send, work.sessionId).stopped(0);
    }
    await Promise.all(
      stopGoing.map(async (activity) => {
        const say = new AutomationMessages(send, activity.sessionId);
        if (activity.kind === 'running') say.stopping();
        await this.deps.activities.stop(activity);
        if (activity.kind === 'generating') say.stopped(0);
      }),
    );
  }

  /**
   * The run API's cancel: a run waiting its turn leaves the line (it never starts; recorded stopped),
   * a run going is asked to stop (its end is recorded as it stops). Null when the run is neither here.
   */
  async cancel(userId: string, runId: string): Promise<'left' | 'stopping' | null> {
    const waiting = this.turns.waitingRun(runId);
    if (waiting?.ticket.leave()) {
      await this.leftLine(waiting);
      return 'left';
    }
    const activity = this.going(userId).find((a) => a.progress.runId === runId);
    if (!activity) return null;
    this.deps.activities
      .stop(activity)
      .catch((error: unknown) => this.deps.log.error({ err: error, runId }, 'stopping a run'));
    return 'stopping';
  }

  /** A run that left the line before its turn: its row (if it had one) says it was cancelled, never run. */
  private async leftLine(work: WaitingWork): Promise<void> {
    if (work.runId) await this.recordLeftLine(work.orgId, work.runId);
  }

  /** Records a run that left the line before its turn (here or in Redis): stopped, and it never started. */
  async recordLeftLine(ownerId: string, runId: string): Promise<void> {
    await this.deps.recorder.stopped(ownerId, runId, 0);
    await this.deps.recorder.note(
      ownerId,
      runId,
      'Cancelled while it waited its turn: it never started',
      'warn',
    );
  }

  /** Server shutdown: abort everything; runs still going or waiting are marked interrupted. */
  async shutdown(): Promise<void> {
    for (const work of this.turns.leaveAll()) {
      if (work.runId) await this.deps.recorder.interrupted(work.orgId, work.runId);
    }
    const stopped = (await this.deps.activities.shutdown('automation')) as AutomationActivity[];
    for (const activity of stopped) {
      const { runId } = activity.progress;
      if (runId) await this.deps.recorder.interrupted(activity.progress.work.ownerId, runId);
    }
  }
}
