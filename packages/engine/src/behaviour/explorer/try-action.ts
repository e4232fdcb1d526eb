import { RUN_ID } from '../../variables';
import type { CandidateAction } from '../candidates';
import { diffSnapshots, meaningful } from '../diff';
import type { PageSnapshot } from '../snapshot';
import type { BehaviourStep } from '../steps';
import { count } from './actions';
import { PRECHECK_MS } from './budget';
import type { Exploration } from './exploration';
import { remember } from './opening';
import { type Outcome, propose } from './proposals';
import { rethrowAbort } from './sessions';
import { key, type State, type Tried } from './types';
import { verify } from './verify';

const EDIT_VALUES = ['Water the plants', 'Book the dentist', 'Renew the passport'];

/**
 * Tries one action in a state: reaches the state, snapshots, acts, snapshots, and when it did
 * something, replays it and keeps the checks that held as a behaviour.
 */
export async function tryAction(
  x: Exploration,
  state: State,
  action: CandidateAction,
): Promise<Tried | null> {
  const id = `${key(state.setup)}|${JSON.stringify(action.steps)}`;
  if (x.tried.has(id) || x.budget.out) return null;
  x.tried.add(id);
  x.budget.actions++;
  x.options.onProgress?.(`Trying: ${action.description}`);
  let before: PageSnapshot | null;
  try {
    before = await x.pages.reach(state);
  } catch (error) {
    rethrowAbort(error);
    return null;
  }
  if (!before) return null;
  x.states.add(key(state.setup));
  const acted = await act(x, action);
  if (!acted) return null;
  const { after, steps } = acted;
  if (state.setup.length === 0 || after.url === before.url) remember(x, after);
  const raw = diffSnapshots(before, after);
  // Nothing changed at all: the session still shows the state, and the next action can use it.
  if (raw.length === 0 && action.kind !== 'reload') x.pages.at = key(state.setup);
  const effects = meaningful(raw);
  const unchanged = effects.length === 0 && action.kind !== 'reload';
  if (unchanged && !action.mayChangeNothing) return { addedItem: false, marked: false };
  const outcome: Outcome = { state, action, before, after, effects, unchanged };
  const proposed = propose(outcome, x.effectsOf);
  if (unchanged && proposed.length === 0) return { addedItem: false, marked: false };
  if (!unchanged && effects.length > 0) x.effectsOf.set(key([...state.setup, action]), effects);
  const tried = triedOf(outcome);
  if (!proposed || proposed.length === 0) return tried;
  // What does not hold right here is not worth a replay: checked at once, briefly.
  const likely = await x.pages.holding(x.pages.session!, proposed, x.budget.scaled(PRECHECK_MS));
  if (likely.length === 0) return tried;
  const performed = { ...action, steps };
  x.dataTexts = [...before.items, ...after.items].flatMap((i) => [i.label, i.text]);
  const assertions = await verify(x, state, performed, likely);
  if (!assertions) return tried;
  x.found.push({
    url: x.pages.url,
    setup: state.setup.flatMap((a) => a.steps),
    action: steps,
    kind: action.kind,
    description: action.description,
    control: action.control,
    value: action.value,
    setupActions: state.setup.map((a) => ({
      kind: a.kind,
      description: a.description,
      value: a.value,
      control: a.control,
    })),
    effects,
    assertions,
    itemsBefore: before.items
      .filter((i) => ['listitem', 'row', 'article', 'item'].includes(i.role))
      .map((i) => ({ label: i.label, checked: i.checked, states: i.states })),
    signature: `${action.signature}|${state.setup.map((a) => a.signature).join('>')}`,
  });
  return tried;
}

/** Whether the action added an item, or marked one (what the list strategy builds its states on). */
function triedOf({ action, before, after, effects }: Outcome): Tried {
  return {
    before,
    after,
    addedItem: effects.some((e) => e.kind === 'itemAdded') && count(before) < count(after),
    // An item's state changed and the item stayed: a checkbox, a class, or (a button that marks a
    // row as paid) a text of the item acted on, with nothing removed.
    marked:
      effects.some((e) => (e.kind === 'stateChanged' || e.kind === 'checkedChanged') && e.item !== null) ||
      (action.kind === 'click' &&
        action.control.item !== null &&
        !effects.some((e) => e.kind === 'itemRemoved') &&
        effects.some(
          (e) => (e.kind === 'textChanged' || e.kind === 'textAdded') && e.item === action.control.item,
        )),
  };
}

/** Performs an action; an edit types a new title into the field the double-click opened. */
async function act(
  x: Exploration,
  action: CandidateAction,
): Promise<{ after: PageSnapshot; steps: BehaviourStep[] } | null> {
  const session = x.pages.session!;
  x.pages.at = null;
  const steps = [...action.steps];
  try {
    for (const step of action.steps) await x.pages.actStep(session, step);
    let after = await x.pages.settle(session);
    if (action.kind === 'edit') {
      const item = action.control.item ?? '';
      if (!after.focused?.value.includes(item)) return { after, steps };
      const plain =
        [...EDIT_VALUES].find((v) => !v.toLowerCase().includes(item.toLowerCase())) ?? EDIT_VALUES[0];
      const value = x.options.sharedState ? `${plain} {{${RUN_ID}}}` : plain;
      const more: BehaviourStep[] = [
        { verb: 'fillFocused', value },
        { verb: 'press', key: 'Enter' },
      ];
      for (const step of more) await x.pages.actStep(session, step);
      steps.push(...more);
      action.value = value;
      after = await x.pages.settle(session);
    }
    return { after, steps };
  } catch (error) {
    rethrowAbort(error);
    return null;
  }
}
