import type { VisualCheckOutcome } from '@argus/protocol';
import type { RecordedVisualCheck } from './visual-checks';

/**
 * A case's visual checks as its outcome lists them (`TestOutcome.visualChecks`): the session's
 * recorded verdicts of step `index`, secrets hidden, each said in the case's log (a difference or a
 * new check as a warning: it is for review, and the case's status does not show it).
 */
export function visualOutcomes(
  recorded: RecordedVisualCheck[],
  index: number,
  hide: (text: string) => string,
  log: (level: 'info' | 'warn', message: string) => void,
): VisualCheckOutcome[] {
  return recorded.map((check) => {
    const outcome: VisualCheckOutcome = {
      name: hide(check.name),
      region: check.region === null ? null : hide(check.region),
      status: check.status,
      issues: check.issues.map((issue) => ({ ...issue, message: hide(issue.message) })),
      message: hide(check.message),
      step_index: index,
    };
    log(
      check.status === 'same' ? 'info' : 'warn',
      `Step ${index + 1}: visual check "${outcome.name}": ${outcome.message}`,
    );
    return outcome;
  });
}
