import { RUN_ID } from '../../variables';
import type { ProposedAssertion } from '../assertions';
import type { CandidateAction } from '../candidates';
import { diffSnapshots, meaningful } from '../diff';
import type { PageSnapshot } from '../snapshot';
import type { BehaviourStep } from '../steps';
import { count } from './actions';
import { PRECHECK_MS } from './budget';
import type { Exploration } from './exploration';
import { changedInPlaceOnServer, requestMark, thenReload } from './kept-on-server';
import { remember } from './opening';
import { type Outcome, propose } from './proposals';
import { answersAlike, matchedItems, searchedText, searchVariants } from './search-variants';
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
  /** Whether the outcome is one to keep at all (a search's variant: only when answered alike). */
  accept?: (o: Outcome) => boolean,
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
  const sentBefore = await requestMark(x.pages.session!);
  const acted = await act(x, action);
  if (!acted) return null;
  const { after, steps } = acted;
  const sentAfter = await requestMark(x.pages.session!);
  if (state.setup.length === 0 || after.url === before.url) remember(x, after);
  const raw = diffSnapshots(before, after);
  // Nothing changed at all: the session still shows the state, and the next action can use it.
  if (raw.length === 0 && action.kind !== 'reload') x.pages.at = key(state.setup);
  const effects = meaningful(raw);
  const unchanged = effects.length === 0 && action.kind !== 'reload';
  if (unchanged && !action.mayChangeNothing) return { addedItem: false, marked: false };
  const outcome: Outcome = { state, action, before, after, effects, unchanged };
  if (accept && !accept(outcome)) return triedOf(outcome);
  const proposed = propose(outcome, x.effectsOf);
  if (unchanged && proposed.length === 0) return { addedItem: false, marked: false };
  if (!unchanged && effects.length > 0) x.effectsOf.set(key([...state.setup, action]), effects);
  if (proposed.length > 0) await keep(x, outcome, steps, proposed);
  // Drawn at once and sent to the server: whether the server kept it is what a reload shows.
  if (changedInPlaceOnServer(action, effects, sentBefore, sentAfter))
    await tryAction(x, state, thenReload(action));
  // A search that found items: also in other letters' case and by part of a word, where the app as it
  // is answers those alike.
  const searched = searchedText(action);
  const matched = searched && !unchanged ? matchedItems(after, searched) : [];
  for (const variant of matched.length > 0 && searched ? searchVariants(action, searched) : [])
    await tryAction(x, state, variant, answersAlike(matched));
  return triedOf(outcome);
}

/** Keeps the action as a behaviour with the proposed checks that held here and in every replay. */
async function keep(
  x: Exploration,
  { state, action, before, after, effects }: Outcome,
  steps: BehaviourStep[],
  proposed: ProposedAssertion[],
): Promise<void> {
  // What does not hold right here is not worth a replay: checked at once, briefly.
  const likely = await x.pages.holding(x.pages.session!, proposed, x.budget.scaled(PRECHECK_MS));
  if (likely.length === 0) return;
  const performed = { ...action, steps };
  x.dataTexts = [...before.items, ...after.items].flatMap((i) => [i.label, i.text]);
  const assertions = await verify(x, state, performed, likely);
  if (!assertions) return;
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
