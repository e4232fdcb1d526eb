import type { BehaviourStep } from '../steps';

/**
 * A check relating a number the page shows to the rows on the same page: a counter equals the rows it
 * counts (`verifyCountOf`), a total the sum of its rows (`verifySum`). Either holds whatever data was
 * there before, but not while another session on the same account adds or closes rows at that moment.
 */
export function relatesToRows(step: BehaviourStep): boolean {
  return step.verb === 'verifyCountOf' || step.verb === 'verifySum';
}

/**
 * With data shared between sessions (`sharedState`), whether such a check may be kept: only when each
 * session has an account of its own (`ownData`); any other check is judged by `holdsOnAnyData`.
 */
export function keptOnSharedData(step: BehaviourStep, ownData: boolean): boolean {
  return ownData || !relatesToRows(step);
}
