import { seconds } from './automation-progress';
import type { Tally } from './case-pool';
import type { CaseContext, RunContext } from './run-context';

/**
 * The run's end once its lanes are done (`taken` cases of its total): handed back with cases left,
 * stopped, or complete, recorded and said.
 */
export async function endRun(ctx: CaseContext, taken: number, tally: Tally): Promise<void> {
  const { deps, request, runId, activity, say, control, engine, usage } = ctx;
  const { recorder } = deps;
  const { ownerId, cases } = request;
  const executionTime = seconds(Date.now() - activity.startedAt);
  if (!activity.signal.aborted && control.handingBack() && taken < cases.length) {
    await handBack(ctx);
    return;
  }
  recorder.ended(ownerId, runId);
  if (activity.signal.aborted) {
    await recorder.stopped(ownerId, runId, executionTime, usage);
    say.stopped(executionTime, engine.interpreter ? usage : undefined);
    return;
  }
  await recorder.complete(ownerId, runId, executionTime, usage);
  say.allTestsCompleted({
    total_tests: cases.length,
    passed: tally.passed,
    ...(tally.flaky > 0 ? { flaky: tally.flaky } : {}),
    execution_time: executionTime,
    engine: engine.runEngine,
    usage,
  });
}

/** Cases are left and the run is handed back: the cases under way are recorded; the rest run later. */
async function handBack({ deps, request, runId, control, progress }: RunContext): Promise<void> {
  const { ownerId, cases } = request;
  control.handedBack(runId);
  const recorded = (await deps.recorder.recordedCases(ownerId, runId)).size;
  const notice = control.handedBackNotice(recorded, cases.length);
  progress(notice.progress);
  await deps.recorder.note(ownerId, runId, notice.note, 'warn');
}

/**
 * The run failed (a database write, most likely). The database may be what failed (unreachable past
 * DATABASE_RETRY_MS): the user is told all the same, and the run left running is marked by the sweep
 * of runs whose job is lost (docs/DEPLOYMENT.md#postgresql).
 */
export async function runFailed({ deps, runId, request, say }: RunContext, error: unknown): Promise<void> {
  deps.log.error({ err: error, runId }, 'test run failed');
  await deps.recorder
    .failed(request.ownerId, runId)
    .catch((cause: unknown) =>
      deps.log.error({ err: cause, runId }, 'a failed run could not be recorded as failed'),
    );
  say.failed('INTERNAL', 'An error occurred during test execution');
}
