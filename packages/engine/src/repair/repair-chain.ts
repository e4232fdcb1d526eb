import type { Proof } from './prove';
import { renamesOf } from './renames';
import type { RepairOutcome, RepairRequest } from './repair-types';
import { judgeRepairable, type RepairTarget } from './repairable';

/**
 * Steps repaired in one case at most: a redesign renames a few things a case uses, not dozens, but a
 * case that adds two items through a renamed form in two parts meets four of them before its own, and
 * a check of the nav's state after it two more for each link (its name, then its state word): ledger's
 * add case meets ten. Each step is only tried once a proof got past the one before it.
 */
export const MAX_CHAIN = 12;
/** How the evidence says a chain ran out of length. */
const CHAIN_FULL = `${MAX_CHAIN} steps repaired and proved one after another`;

/** A proved repair, before its weakenings are judged against the case as saved. */
export interface Found {
  after: string[];
  /** The first repaired step's place in `after`. */
  repairedIndex: number;
  /** The attempt's step indexes a line was inserted before, ascending (`RewrittenCase.insertedBefore`). */
  insertedBefore: number[];
  proof: Proof;
  summaries: string[];
  signals: string[];
  engine: string;
}

/** What a chained repair needs of the attempt it continues. */
export interface ChainFrom {
  request: RepairRequest;
  /** The case's steps as the attempt repairs them. */
  steps: string[];
  /** How many attempts this one continues (0: the failed case's own). */
  depth: number;
  /** What the attempt's step wanted of its target (a later repair of the same step wants another part). */
  want: RepairTarget['want'];
  /** The attempt's signals: why a chain stopped is said there. */
  signals: string[];
  /** A child attempt repairing `stepIndex` of `request`'s case (the attempt's own class). */
  attempt(request: RepairRequest, stepIndex: number, target: RepairTarget): Promise<Found | RepairOutcome>;
}

/**
 * The proof got past the repaired step and failed on a later one the same rules may repair (the
 * redesign's next change): repair that step too, on top of this repair, and prove the whole again.
 */
export async function chainRepair(from: ChainFrom, found: Found): Promise<Found | null> {
  const failure = found.proof.failure;
  if (!failure) return null;
  if (from.depth + 1 >= MAX_CHAIN) {
    // Said in the evidence: the case was not found broken, it changed in more places than a repair takes.
    from.signals.push(
      `${CHAIN_FULL}, and the case failed next at step ${(failure.step_index ?? 0) + 1}: more changed steps than a repair chains`,
    );
    return null;
  }
  const moved = (index: number) => index + found.insertedBefore.filter((at) => at <= index).length;
  const request: RepairRequest = {
    testCase: { ...from.request.testCase, steps: found.after },
    failure,
    error: found.proof.error ?? '',
    lastPassing: from.request.lastPassing && {
      steps: from.request.lastPassing.steps.map((s) => ({ ...s, index: moved(s.index) })),
    },
    rejected: from.request.rejected,
    // What this repair renamed holds for the case's later steps too (the nav link "Expenses", now
    // "Entries", checked again as a text).
    renames: [
      ...(from.request.renames ?? []),
      ...renamesOf(from.steps, found.after, from.request.testCase.test_name),
    ],
  };
  const judged = judgeRepairable(request);
  // A later step, or the same step again for another of its parts (its element found, its state
  // word renamed too: `Verify "Entries" is marked "active"` where the nav now marks "current").
  const further =
    judged.repairable &&
    (judged.stepIndex > found.repairedIndex ||
      (judged.stepIndex === found.repairedIndex && judged.target.want !== from.want));
  if (!judged.repairable || !further) {
    const at = judged.stepIndex === null ? '' : ` at step ${judged.stepIndex + 1}`;
    from.signals.push(
      `with ${found.summaries.at(-1)?.split('; ')[1] ?? 'the repair'}, the case failed${at}: ${failure.evidence}`,
    );
    return null;
  }
  const next = await from.attempt(request, judged.stepIndex, judged.target);
  if ('verdict' in next) {
    from.signals.push(`step ${judged.stepIndex + 1} failed next: ${next.evidence.summary}`);
    // A chain that ran out of length says so at the top, not only in the link that ran out.
    from.signals.push(...next.evidence.signals.filter((signal) => signal.startsWith(CHAIN_FULL)));
    return null;
  }
  return {
    ...next,
    repairedIndex: found.repairedIndex,
    summaries: [...found.summaries, ...next.summaries],
    signals: [...found.signals, ...next.signals],
    engine: found.engine,
  };
}
