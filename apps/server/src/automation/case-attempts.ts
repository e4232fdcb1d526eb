import type {
  BrowserSession,
  CapturedScreenshot,
  InterpreterUsage,
  LogEntry,
  TestOutcome,
} from '@argus/engine';
import type { ScreenshotRef, TestCase } from '@argus/protocol';
import { type FailedAttempt, flakyFailure } from '../diagnostics/case-diagnosis';
import { loginSecrets } from '../diagnostics/login-secrets';
import type { CaseEnd } from './automation-messages';
import type { CaseContext } from './run-context';

/** A stored screenshot's id, for the step a late tab is shown, once its write is done. */
type Stored = (screenshotId: string | null) => void;

/**
 * One attempt's screenshots. Stored as the steps report them when no retry can follow; otherwise held
 * until the attempt is over, then stored if it is the case's last attempt and dropped if the case is
 * retried, so a case keeps only its final attempt's steps and screenshots.
 */
class AttemptScreenshots {
  private readonly held: { shot: CapturedScreenshot; stored: Stored }[] = [];
  private readonly saving: Promise<ScreenshotRef | null>[] = [];

  constructor(
    private readonly save: (shot: CapturedScreenshot) => Promise<ScreenshotRef | null>,
    private readonly last: boolean,
  ) {}

  add(shot: CapturedScreenshot, stored: Stored): void {
    if (this.last) this.store(shot, stored);
    else this.held.push({ shot, stored });
  }

  /** The attempt is over: the held ones are stored when it is `final`; the stored ones, once written. */
  async settle(final: boolean): Promise<ScreenshotRef[]> {
    if (final) for (const { shot, stored } of this.held) this.store(shot, stored);
    return (await Promise.all(this.saving)).filter((s): s is ScreenshotRef => s !== null);
  }

  private store(shot: CapturedScreenshot, stored: Stored): void {
    this.saving.push(
      this.save(shot).then((ref) => {
        stored(ref?.id ?? null);
        return ref;
      }),
    );
  }
}

interface Attempt {
  outcome: TestOutcome;
  screenshots: ScreenshotRef[];
  /** No retry follows: it passed, was the last allowed, or the run was stopped. */
  final: boolean;
}

/**
 * One attempt at a case, in a browser context of its own (a retry starts as fresh as a first attempt),
 * holding its browser from onSession until the executor settles.
 */
async function attemptOnce(
  ctx: CaseContext,
  testCase: TestCase,
  attempt: number,
  last: boolean,
): Promise<Attempt> {
  const { deps, request, runId, activity, say, usage, video, line, engine } = ctx;
  const { userId, ownerId } = request;
  const { signal, progress: view } = activity;
  const name = testCase.test_name;
  const shots = new AttemptScreenshots(
    (shot) => deps.recorder.saveScreenshot(ownerId, runId, name, shot, request.storage),
    last,
  );
  let browser: BrowserSession | undefined;
  const visuals = ctx.visuals?.forCase(name, Math.max(0, ctx.request.cases.indexOf(testCase)));
  const place = line.request();
  const outcome = await ctx
    .runTest(testCase, {
      onQueued: place.onQueued,
      onSession: (session) => {
        place.granted();
        browser = session;
        video.testStarted(userId, session);
      },
      baseUrl: request.data.url,
      signal,
      stepTimeoutMs: deps.config.stepTimeoutMs,
      testTimeoutMs: deps.config.testTimeoutMs,
      interpreter: engine.interpreter,
      recording: request.recording,
      extraSecrets: loginSecrets(request.target),
      visual: visuals?.port,
      onStep: (update, shot) => {
        say.step(name, update);
        const stored = view.step(name, update);
        if (shot) shots.add(shot, stored);
      },
    })
    .finally(place.over);
  video.testEnded(userId, browser);
  for (const key of Object.keys(usage) as (keyof InterpreterUsage)[]) usage[key] += outcome.usage[key];
  const final = last || outcome.status === 'passed' || signal.aborted;
  const [screenshots] = await Promise.all([
    shots.settle(final),
    keepRecorded(ctx, name, attempt, outcome),
    visuals?.settle(outcome.visualChecks ?? [], final),
  ]);
  // The files are stored: the case's end carries no copy of them on.
  return { outcome: { ...outcome, recorded: undefined }, screenshots, final };
}

/**
 * Stores what the attempt's recording kept (docs/DIAGNOSTICS.md): each attempt's trace and video
 * apart, so a flaky case keeps its failed attempt's trace beside the passing one's (when kept).
 */
async function keepRecorded(ctx: CaseContext, name: string, attempt: number, outcome: TestOutcome) {
  const { trace, video } = outcome.recorded ?? {};
  const { deps, request, runId } = ctx;
  const save = (kind: 'trace' | 'video', data: Buffer) =>
    deps.recorder.saveCaseFile(request.ownerId, runId, name, { kind, attempt, data }, request.storage);
  await Promise.all([trace && save('trace', trace), video && save('video', video)]);
}

/**
 * A case with its retries (docs/HISTORY.md#retries): a failed case (not a stopped one) runs again, up
 * to `retries` times. Its time is every attempt's; its steps, logs and screenshots are the final
 * attempt's, after a line per failed attempt saying why it failed.
 */
export async function attemptCase(ctx: CaseContext, index: number): Promise<CaseEnd> {
  const { request, activity, say, progress } = ctx;
  const { maxAttempts, cases } = request;
  const testCase = cases[index];
  const name = testCase.test_name;
  let attempt = 1;
  const failures: LogEntry[] = [];
  const failed: FailedAttempt[] = [];
  let tried = await attemptOnce(ctx, testCase, attempt, maxAttempts === 1);
  let time = tried.outcome.executionTime;
  while (!tried.final) {
    failed.push({ attempt, failure: tried.outcome.failure, error: tried.outcome.error });
    failures.push({
      timestamp: new Date().toISOString(),
      level: 'warn',
      message: `Attempt ${attempt} of ${maxAttempts} failed: ${tried.outcome.error ?? 'Test failed'}`,
    });
    attempt++;
    progress(`Retrying ${name} (attempt ${attempt} of ${maxAttempts})`);
    activity.progress.testRetrying(name);
    say.testProgress(index, cases.length, name, { attempt, maxAttempts });
    tried = await attemptOnce(ctx, testCase, attempt, attempt === maxAttempts);
    time += tried.outcome.executionTime;
  }
  const passedOnRetry = tried.outcome.status === 'passed' && attempt > 1;
  const outcome: TestOutcome = {
    ...tried.outcome,
    executionTime: Math.round(time * 100) / 100,
    logs: [...failures, ...tried.outcome.logs],
    failure: passedOnRetry ? flakyFailure(failed, attempt) : tried.outcome.failure,
  };
  await keepDiagnostics(ctx, name, attempt, outcome);
  return { testCase, outcome, screenshots: tried.screenshots, attempt, maxAttempts };
}

/** The final attempt's console and network, kept whole as a file (its counts go on the result row). */
async function keepDiagnostics(ctx: CaseContext, name: string, attempt: number, outcome: TestOutcome) {
  if (!outcome.diagnostics) return;
  const { deps, request, runId } = ctx;
  const data = Buffer.from(JSON.stringify(outcome.diagnostics));
  await deps.recorder.saveCaseFile(
    request.ownerId,
    runId,
    name,
    { kind: 'diagnostics', attempt, data },
    request.storage,
  );
}
