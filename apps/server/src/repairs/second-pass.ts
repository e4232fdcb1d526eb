import { proposeRepair, type Rename } from '@argus/engine';
import type { CaseContext } from '../automation/run-context';
import { sameSteps } from './approval';
import { type ProposeRepair, proposeOptions, requestOf, rowOf, say, type TriedBug } from './repair-hook';
import { renameKey, suiteRenames } from './suite-renames';

/** Whether `now` holds a rename (by its old name) that `before` did not. */
export function learntSince(before: readonly Rename[], now: readonly Rename[]): boolean {
  const known = new Set(before.map(renameKey));
  return now.some((rename) => !known.has(renameKey(rename)));
}

/**
 * The run's second pass (docs/REPAIRS.md#renames-learnt-across-the-suite), once its lanes are done: each
 * case of the run labelled a bug is tried again, one at a time in case order, when the suite has
 * learnt a rename since its try (a case repaired later in the run proved one); a second pass follows
 * when the first repaired any (its renames may be what an earlier case needed). A `repair` or `weakens`
 * verdict replaces its bug row and is said on the run; a bug again (or a case that now passed with its
 * own steps) leaves the row as it was. Nothing is tried once the run is stopped or handed back; a try
 * that fails is logged and leaves the row as it was.
 */
export async function retryWithRenames(
  ctx: CaseContext,
  tried: readonly TriedBug[],
  propose: ProposeRepair = proposeRepair,
): Promise<void> {
  let left = [...tried].sort((a, b) => a.index - b.index);
  // A case repaired in one pass may teach the rename an earlier case needed: again, at most MAX_PASSES.
  for (let pass = 0; pass < MAX_PASSES && left.length > 0; pass++) {
    const still = await retryPass(ctx, left, propose);
    if (still === null || still.length === left.length) return;
    left = still;
  }
}

/** Passes over the run's bug-labelled cases at most. */
const MAX_PASSES = 2;

/** One pass: the cases still labelled a bug after it (with the renames they were tried with), or null when stopped. */
async function retryPass(
  ctx: CaseContext,
  tried: readonly TriedBug[],
  propose: ProposeRepair,
): Promise<TriedBug[] | null> {
  const { deps, request, activity, runId } = ctx;
  const suite = request.data.suite;
  const store = deps.repairs;
  if (!suite || !store) return null;
  const still: TriedBug[] = [];
  for (const bug of tried) {
    if (activity.signal.aborted || ctx.control.handingBack()) return null;
    const { testCase } = bug.end;
    try {
      const renames = await suiteRenames(store, request.ownerId, suite.id);
      if (!learntSince(bug.renames, renames)) {
        still.push(bug);
        continue;
      }
      const last = await store.lastPassing(request.ownerId, suite.id, testCase.test_name);
      const repairRequest = await requestOf(ctx, store, suite, bug.end, last, renames);
      const verdict = await propose(repairRequest, proposeOptions(ctx));
      if (activity.signal.aborted) return null;
      if (verdict.verdict === 'bug' || sameSteps(verdict.after, testCase.steps)) {
        still.push({ ...bug, renames });
        continue;
      }
      const row = await rowOf(ctx, store, { suite, index: bug.index, testCase, last }, verdict);
      await store.replace(request.ownerId, bug.repairId, row);
      await say(ctx, testCase.test_name, verdict);
    } catch (error) {
      if (activity.signal.aborted) return null;
      deps.log.warn({ err: error, runId, case: testCase.test_name }, 'a second repair try could not be made');
      still.push(bug);
    }
  }
  return still;
}
