import { RUN_ID } from '../../variables';
import type { CandidateAction } from '../candidates';
import type { BehaviourStep } from '../steps';

/**
 * The texts these actions typed into fields (not the options they chose: every item may show "High"),
 * long enough to look for.
 */
export function typedBy(actions: CandidateAction[]): string[] {
  const values = actions.flatMap((a) => [
    ...(a.kind === 'select' ? [] : [a.value ?? '']),
    ...a.steps.flatMap((step) => (step.verb === 'fill' ? [step.value] : [])),
  ]);
  return [...new Set(values.filter((v) => v.length >= 3))];
}

/**
 * With data shared between sessions (`sharedState`), whether a check holds whatever data was there
 * before: a check about what the behaviour typed (its own item) does; counts, numbers and items it did
 * not make do not (an earlier run may have added, closed or deleted them).
 */
export function holdsOnAnyData(step: BehaviourStep, own: string[], data: string[] = []): boolean {
  const lower = (text: string) => text.toLowerCase();
  const mine = (text: string | undefined) =>
    !!text && own.some((value) => lower(text).includes(lower(value)));
  if (step.verb === 'verifyExactCount') return false;
  const region = 'region' in step ? step.region : undefined;
  if (region && !mine(region)) return false;
  if (step.verb === 'verifyText') {
    // Absent: only what bears this run's id, since other behaviours and earlier runs type the same words.
    if (!step.visible) return mine(step.text) && step.text.includes(`{{${RUN_ID}}}`);
    if (mine(step.text) || mine(region)) return true;
    // An item's text the behaviour did not type is data another test may close, edit or delete.
    if (data.some((text) => lower(text).includes(lower(step.text)))) return false;
    return !/\d/.test(step.text);
  }
  return true;
}
