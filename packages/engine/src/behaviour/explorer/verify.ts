import type { ProposedAssertion } from '../assertions';
import type { CandidateAction } from '../candidates';
import type { BehaviourStep } from '../steps';
import type { Exploration } from './exploration';
import { keptOnSharedData } from './own-data';
import { rethrowAbort } from './sessions';
import { holdsOnAnyData, typedBy } from './shared-data';
import type { State } from './types';

/**
 * Replays the behaviour in fresh sessions (the flake filter); the checks that held every time, or
 * null. With data shared between sessions, only checks that hold on any data are replayed.
 */
export async function verify(
  x: Exploration,
  state: State,
  action: CandidateAction,
  proposed: ProposedAssertion[],
): Promise<BehaviourStep[] | null> {
  if (x.options.sharedState) {
    const own = typedBy([...state.setup, action]);
    const ownData = x.options.ownData === true;
    proposed = proposed.filter(
      (a) => holdsOnAnyData(a.step, own, x.dataTexts) && keptOnSharedData(a.step, ownData),
    );
    if (proposed.length === 0) return null;
  }
  // The exploring session is let go: replays run in sessions of their own, some at once.
  await x.pages.letGo();
  let alive = proposed;
  for (let first = 1; first <= x.replays; first += x.concurrency) {
    if (x.signal?.aborted || Date.now() >= x.budget.deadline) return null;
    const batch = Array.from({ length: Math.min(x.concurrency, x.replays - first + 1) }, (_, i) => first + i);
    x.options.onProgress?.(`Checking: ${action.description} (replay ${batch.join(' and ')} of ${x.replays})`);
    const results = await Promise.all(batch.map(() => replay(x, state, action, alive)));
    if (results.some((r) => r === null)) return null;
    alive = alive.filter((a) => results.every((held) => held?.includes(a)));
    if (alive.length === 0) return null;
  }
  // One wording per group: the first that held.
  const groups = new Set<string>();
  const kept = alive.filter((a) => {
    if (!a.group) return true;
    if (groups.has(a.group)) return false;
    groups.add(a.group);
    return true;
  });
  if (kept.every((a) => a.step.verb === 'verifyNoConsoleErrors')) return null;
  return kept.map((a) => a.step);
}

/** One replay in a fresh session: the checks that held, or null when the behaviour could not be replayed. */
async function replay(
  x: Exploration,
  state: State,
  action: CandidateAction,
  checks: ProposedAssertion[],
): Promise<ProposedAssertion[] | null> {
  const opened = await x.pages.open(state).catch(rethrowAbort);
  if (!opened) return null;
  const { session } = opened;
  try {
    for (const step of action.steps) await x.pages.actStep(session, step);
    return await x.pages.holding(session, checks, x.budget.scaled(x.verifyTimeoutMs));
  } catch (error) {
    rethrowAbort(error);
    return null;
  } finally {
    await session.close().catch(() => {});
  }
}
