import { type CandidateAction, candidateActions } from '../candidates';
import type { PageSnapshot } from '../snapshot';
import type { BehaviourStep } from '../steps';
import { isAdder, newItemLabel, reloadAction } from './actions';
import type { Exploration } from './exploration';
import { exploreItemPage } from './item-page';
import { revisitPages } from './revisit-pages';
import { rethrowAbort } from './sessions';
import { tryAction } from './try-action';
import type { State } from './types';

/** Answered by a step of the list's exploration when the budget ran out in it: the rest is skipped. */
const OUT = 'out';

/** The list as its items' controls are tried in: two items when a second could be added, else one. */
interface ListState {
  state: State;
  snapshot: PageSnapshot;
  /** The first item's label. */
  firstItem: string | null;
  /** The item acted on: the newest, with the first above it. */
  target: string | null;
}

/**
 * The states a list app is explored in: one item, two items, one of two completed. In order: the
 * newest item's controls, its own page, the site's other pages before and after, the page's controls
 * with one of two items completed, a reload, and the page's controls with one item.
 */
export async function exploreList(x: Exploration, adder: CandidateAction): Promise<void> {
  const one: State = { setup: [adder], depth: 1 };
  const first = await x.pages.reach(one).catch(rethrowAbort);
  if (!first) return;
  const list = await withSecondItem(x, one, first, adder);
  const marked = await tryItemControls(x, list);
  if (marked === OUT) return;
  let completed = marked;
  // The item's own page (a detail page its title links to), and what can be done there.
  const viaPage = list.target ? await exploreItemPage(x, list.state, list.snapshot, list.target) : null;
  if (!completed && viaPage) {
    // Marked on its page, the item as the list shows it then (its status), and the list's filters below.
    completed = viaPage;
    if (!x.budget.out) await tryAction(x, list.state, viaPage);
  }
  // The site's other pages (a summary, a report) seen before and after the first item was added.
  await revisitPages(x, one, first);
  const explored = new Set<string>();
  const done = await tryWithOneCompleted(x, list, completed, explored);
  if (done === OUT) return;
  // A reload of the richest state, then the page's controls with one item (those not tried above).
  if (!x.budget.out) await tryAction(x, done ?? list.state, reloadAction());
  else x.budget.skip('a reload');
  const pageActions = x.order(
    candidateActions(first, 1, x.hints).filter(
      (a) => a.scope === 'page' && !isAdder(a) && !explored.has(a.signature),
    ),
  );
  for (const [i, action] of pageActions.entries()) {
    if (x.budget.out)
      return x.budget.skip(pageActions.slice(i).map((a) => `${a.description} (with one item)`));
    await tryAction(x, one, action);
  }
}

/** A second item beside the first, when the adder can add one there (or from its own page). */
async function withSecondItem(
  x: Exploration,
  one: State,
  first: PageSnapshot,
  adder: CandidateAction,
): Promise<ListState> {
  const firstItem = newItemLabel(first, adder);
  const again =
    candidateActions(first, 1, x.hints).find(
      (a) => a.kind === adder.kind && a.signature === adder.signature,
    ) ??
    x.secondAdder.get(adder.signature) ??
    (first.url !== x.pages.url ? await addAgainFrom(x, one, adder) : undefined);
  let two: State | null = null;
  let second: PageSnapshot | null = null;
  if (again && x.maxDepth >= 2) {
    const result = await tryAction(x, one, again);
    if (result?.addedItem) {
      two = { setup: [adder, again], depth: 2 };
      second = await x.pages.reach(two).catch(rethrowAbort);
    }
  }
  // The newest item's own controls, with the first above it: acting on an item that is not the first
  // tells "removes (or ticks) the one clicked" from "removes the first one" (a bug lists are prone to).
  const target = second && again ? (newItemLabel(second, again, firstItem) ?? firstItem) : firstItem;
  return { state: second && two ? two : one, snapshot: second ?? first, firstItem, target };
}

/** The target item's own controls; answers the first that marked it (it completes an item), or OUT. */
async function tryItemControls(
  x: Exploration,
  list: ListState,
): Promise<CandidateAction | null | typeof OUT> {
  const itemActions = x.order(
    candidateActions(list.snapshot, 2, x.hints).filter(
      (a) => a.scope === 'item' && a.control.item === list.target,
    ),
  );
  let completed: CandidateAction | null = null;
  for (const [i, action] of itemActions.entries()) {
    if (x.budget.out) {
      x.budget.skip([
        ...itemActions.slice(i).map((a) => a.description),
        'the page after completing an item',
        'a reload',
      ]);
      return OUT;
    }
    const result = await tryAction(x, list.state, action);
    // What marks an item without removing it (a checkbox, a "Mark as paid" button) completes it.
    if (!completed && (action.kind === 'check' || action.kind === 'click') && result?.marked)
      completed = action;
  }
  return completed;
}

/**
 * One of two completed: the page's own controls (filters, clear completed, toggle all), each noted in
 * `explored`. Answers the state (null when nothing completes an item or it is too deep), or OUT.
 */
async function tryWithOneCompleted(
  x: Exploration,
  list: ListState,
  completed: CandidateAction | null,
  explored: Set<string>,
): Promise<State | null | typeof OUT> {
  // The first is the one completed, the newest left active: a bulk action that reaches only the
  // first item ("mark all" marking one) then leaves a visible difference.
  const completeFirst =
    completed && list.target !== list.firstItem
      ? (candidateActions(list.snapshot, 2, x.hints).find(
          (a) =>
            a.scope === 'item' &&
            a.control.item === list.firstItem &&
            a.kind === completed.kind &&
            a.signature === completed.signature,
        ) ?? completed)
      : completed;
  if (!completeFirst || x.maxDepth < list.state.depth + 1) return null;
  const done: State = { setup: [...list.state.setup, completeFirst], depth: list.state.depth + 1 };
  const doneSnapshot = await x.pages.reach(done).catch(rethrowAbort);
  if (!doneSnapshot) return done;
  // Filters first: they are what a completed item changes most.
  const pageActions = x.order(
    candidateActions(doneSnapshot, 3, x.hints).filter((a) => a.scope === 'page' && !isAdder(a)),
    true,
  );
  for (const [i, action] of pageActions.entries()) {
    if (x.budget.out) {
      x.budget.skip([...pageActions.slice(i).map((a) => `${a.description} (an item completed)`), 'a reload']);
      return OUT;
    }
    explored.add(action.signature);
    await tryAction(x, done, action);
  }
  return done;
}

/**
 * The adder again, for a second item, when it is on another page than the list it adds to (a form
 * on /new that leads back to /): the list's state, a visit to the form's page, and the form filled
 * with the second item's values.
 */
async function addAgainFrom(
  x: Exploration,
  state: State,
  adder: CandidateAction,
): Promise<CandidateAction | undefined> {
  try {
    await x.pages.reach(state);
    const session = x.pages.session!;
    x.pages.at = null;
    const visit: BehaviourStep = { verb: 'navigate', url: x.pages.url };
    await x.pages.actStep(session, visit);
    const form = await x.pages.settle(session);
    const again = candidateActions(form, 1, x.hints).find(
      (a) => a.kind === adder.kind && a.signature === adder.signature,
    );
    return again && { ...again, steps: [visit, ...again.steps] };
  } catch (error) {
    rethrowAbort(error);
    return undefined;
  }
}
