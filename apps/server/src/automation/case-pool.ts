import { repairFailedCase, type TriedBug } from '../repairs/repair-hook';
import { retryWithRenames } from '../repairs/second-pass';
import { attemptCase } from './case-attempts';
import type { CaseContext } from './run-context';

/** The run's verdicts so far: cases passed at the first attempt, and flaky ones (passed on a retry). */
export interface Tally {
  passed: number;
  flaky: number;
}

/**
 * The run's cases side by side, one per browser the run holds: each lane takes the next case as its
 * last one ends, until every case is taken, the run is stopped, or it is handed back
 * (`RunControl.handingBack`). Then, unless stopped or handed back, the cases labelled a bug are tried
 * once more with the renames the suite learnt since (second-pass.ts). Answers how many cases were
 * taken; fewer than all means cases are left.
 */
export async function runCases(ctx: CaseContext, tally: Tally): Promise<number> {
  const total = ctx.request.cases.length;
  const { signal, browsers } = ctx.activity;
  let next = 0;
  const bugs: TriedBug[] = [];
  const lanes = Array.from({ length: browsers }, async () => {
    while (next < total && !signal.aborted && !ctx.control.handingBack()) {
      await runOne(ctx, next++, tally, bugs);
    }
  });
  await Promise.all(lanes);
  if (bugs.length > 0 && !signal.aborted && !ctx.control.handingBack()) await retryWithRenames(ctx, bugs);
  return next;
}

/**
 * One case: run with its retries, recorded as it ends, and said; or counted, when recorded before. A
 * case its repair labelled a bug is added to `bugs`, for the second pass.
 */
async function runOne(ctx: CaseContext, index: number, tally: Tally, bugs: TriedBug[]): Promise<void> {
  const { deps, request, runId, activity, say } = ctx;
  const { cases, already, ownerId } = request;
  const name = cases[index].test_name;
  const before = already.get(name);
  if (before !== undefined) {
    // Recorded before the run was resumed: counted, not run (or recorded) again.
    if (before === 'passed') tally.passed++;
    else if (before === 'flaky') tally.flaky++;
    return;
  }
  activity.progress.testStarted(name);
  say.testProgress(index, cases.length, name);
  const end = await attemptCase(ctx, index);
  const { outcome, attempt, screenshots } = end;
  const ok = outcome.status === 'passed';
  if (ok && attempt > 1) tally.flaky++;
  else if (ok) tally.passed++;
  activity.progress.testFinished(name, {
    passed: ok,
    executionTime: outcome.executionTime,
    error: outcome.error ?? null,
    attempts: attempt,
  });
  await deps.recorder.recordResult(ownerId, runId, end.testCase, outcome, screenshots, attempt);
  say.testFinished(end);
  // Recorded and said first (the live view never waits for it); then, in this lane, its repair.
  const bug = await repairFailedCase(ctx, index, end);
  if (bug) bugs.push(bug);
}
