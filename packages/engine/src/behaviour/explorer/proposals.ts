import { RUN_ID } from '../../variables';
import {
  countAssertions,
  isVolatile,
  type ProposedAssertion,
  persistenceAssertions,
  proposeAssertions,
  sumAssertions,
} from '../assertions';
import type { CandidateAction } from '../candidates';
import type { Effect } from '../diff';
import type { PageSnapshot } from '../snapshot';
import type { BehaviourStep } from '../steps';
import { typedBy } from './shared-data';
import { key, type State } from './types';

/** One action tried in a state: the pages before and after, and what it changed. */
export interface Outcome {
  state: State;
  action: CandidateAction;
  before: PageSnapshot;
  after: PageSnapshot;
  /** Its meaningful effects. */
  effects: Effect[];
  /** It changed nothing that counts (a reload always counts). */
  unchanged: boolean;
}

/**
 * The checks worth trying for an action's outcome: those of its effects (or, for a reload, what was
 * kept), sums and counts the action changed, and what this run made still shown or gone. An action
 * that changed nothing gets checks only of what must still be so, and that the page stayed.
 */
export function propose(o: Outcome, effectsOf: Map<string, Effect[]>): ProposedAssertion[] {
  const { state, action, before, after, effects, unchanged } = o;
  const proposed = unchanged
    ? []
    : action.kind === 'reload'
      ? [
          ...(persistenceAssertions(before, after, typedBy(state.setup)) ?? []),
          ...keptAfterReload(effectsOf.get(key(state.setup)) ?? [], before, after),
        ]
      : proposeAssertions(before, after, effects, action);
  // A summary's rows adding up to its total, on a page the action opened (or whose summary it changed).
  const sums = sumAssertions(after);
  if (!unchanged && JSON.stringify(sums) !== JSON.stringify(sumAssertions(before))) proposed.push(...sums);
  // A counter that counts rows, where the action changed it.
  if (!unchanged && effects.some((e) => e.kind === 'textChanged' && e.item === null && /\d/.test(e.to)))
    proposed.push(...countAssertions(after));
  // What this run made (its values bear the run's id): still shown, or gone, as the action left it.
  for (const value of typedBy(state.setup).filter((v) => v.includes(`{{${RUN_ID}}}`))) {
    if (!shows(before, value)) continue;
    const step: BehaviourStep = { verb: 'verifyText', text: value, visible: shows(after, value) };
    if (!proposed.some((p) => JSON.stringify(p.step) === JSON.stringify(step))) proposed.push({ step });
  }
  if (unchanged && proposed.length > 0) {
    // Still on the same page (an item's page has another id in each session: not checked then).
    const path = new URL(before.url).pathname;
    if (!/\d/.test(path)) proposed.push({ step: { verb: 'verifyUrl', text: path } });
  }
  return proposed;
}

/**
 * After a reload, what the action that led to the state changed on the page (a status now "Closed",
 * a "Reopen" button), where the reload still shows it: a change the server did not keep goes.
 */
function keptAfterReload(effects: Effect[], before: PageSnapshot, after: PageSnapshot): ProposedAssertion[] {
  const out: ProposedAssertion[] = [];
  const texts = (s: PageSnapshot) => s.texts.filter((t) => t.item === null).map((t) => t.text);
  const was = texts(before);
  const now = texts(after);
  for (const e of effects) {
    const text =
      e.kind === 'textChanged' && e.item === null
        ? e.to
        : e.kind === 'textAdded' && e.item === null && !e.caption
          ? e.text
          : null;
    if (text && !isVolatile(text) && was.includes(text) && now.includes(text))
      out.push({ step: { verb: 'verifyText', text, visible: true } });
    if (
      e.kind === 'controlAdded' &&
      e.item === null &&
      e.name &&
      (e.role === 'button' || e.role === 'link') &&
      after.controls.some((c) => c.role === e.role && c.name === e.name && c.item === null)
    )
      out.push({ step: { verb: 'verifyElement', role: e.role, name: e.name, visible: true } });
  }
  return out.slice(0, 6);
}

/** Whether the page shows `value` anywhere: a text, an item, a control's name. */
function shows(snapshot: PageSnapshot, value: string): boolean {
  const v = value.toLowerCase();
  return (
    snapshot.texts.some((t) => t.text.toLowerCase().includes(v)) ||
    snapshot.items.some((i) => i.text.toLowerCase().includes(v)) ||
    snapshot.controls.some((c) => c.name.toLowerCase().includes(v))
  );
}
