import { type CandidateAction, candidateActions, itemPageLink } from '../candidates';
import type { PageSnapshot } from '../snapshot';
import type { BehaviourStep } from '../steps';
import { reloadAction, revealedBy } from './actions';
import { PRECHECK_MS } from './budget';
import { tryConfirmation } from './confirmation';
import type { Exploration } from './exploration';
import { rethrowAbort } from './sessions';
import { tryAction } from './try-action';
import { key, type State } from './types';

/** An item's own page, reached: the link followed, the state it shows and the page as it opened. */
interface ItemPage {
  link: { name: string };
  follow: CandidateAction;
  opened: State;
  page: PageSnapshot;
}

/**
 * Follows an item's link to a page of its own and tries what is there, in that state: its forms
 * (edit, comment), each followed by a reload; its buttons (close, delete), a button that opens a
 * confirmation with each of the confirmation's buttons (Delete, and Cancel, which must change
 * nothing), and one that changes the item in place with a reload and the buttons it brought (Reopen).
 * Answers a way to mark the item from the list (open its page, press that button, go back), for the
 * list's filters to be tried with a marked item when the list has no control of its own for it.
 */
export async function exploreItemPage(
  x: Exploration,
  state: State,
  snapshot: PageSnapshot,
  item: string,
): Promise<CandidateAction | null> {
  const reached = await openItemPage(x, state, snapshot, item);
  if (!reached) return null;
  const { link, follow, opened, page } = reached;
  // The list's own controls (a "New ticket" button in the header) are not the item's.
  const listed = new Set(candidateActions(snapshot, 2, x.hints).map((a) => a.signature));
  const actions = x.order(
    candidateActions(page, 2, x.hints).filter(
      (a) => a.scope === 'page' && (a.kind === 'submit' || a.kind === 'click') && !listed.has(a.signature),
    ),
  );
  let marker: CandidateAction | null = null;
  for (const [i, action] of actions.entries()) {
    if (x.budget.out) {
      x.budget.skip(actions.slice(i).map((a) => `${a.description} (on the page of ${JSON.stringify(item)})`));
      break;
    }
    const result = await tryAction(x, opened, action);
    const after = result?.after;
    if (!after) continue;
    const here = result.before ?? page;
    if (after.dialogs.length > here.dialogs.length) {
      await tryConfirmation(x, opened, here, action, after);
      continue;
    }
    // (Deeper than maxDepth: a reload and the few buttons a change brought are all that is tried there.)
    if (after.url !== here.url) continue;
    // It changed the page in place (a comment added, the ticket closed): kept after a reload?
    const changed: State = { setup: [...opened.setup, action], depth: opened.depth + 1 };
    if (!x.budget.out) await tryAction(x, changed, reloadAction());
    if (action.kind !== 'click') continue;
    marker ??= {
      ...action,
      description: `open ${JSON.stringify(link.name)}, ${action.description}, and go back to the list`,
      steps: [...follow.steps, ...action.steps, { verb: 'navigate', url: snapshot.url }],
      scope: 'item',
      control: { ...action.control, item },
      signature: `item page|${action.signature}`,
    };
    // The buttons it brought (Reopen after Close), in that state.
    for (const next of revealedBy(here, after, x.hints).filter(
      (a) => a.kind === 'click' && a.scope === 'page' && !listed.has(a.signature),
    )) {
      if (x.budget.out) break;
      await tryAction(x, changed, next);
    }
  }
  return marker;
}

/** Opens the item's page by its link, in the held session; null when it has none or it did not open. */
async function openItemPage(
  x: Exploration,
  state: State,
  snapshot: PageSnapshot,
  item: string,
): Promise<ItemPage | null> {
  const link = itemPageLink(snapshot, item);
  if (!link || x.budget.out || x.maxDepth < state.depth + 1) return null;
  const follow: CandidateAction = {
    kind: 'link',
    description: `open ${JSON.stringify(link.name)}`,
    steps: [
      { verb: 'click', target: link.name, role: 'link', ...(link.name !== item ? { region: item } : {}) },
    ],
    control: { role: 'link', name: link.name, item, type: 'link' },
    scope: 'item',
    signature: 'open|item',
  };
  let opened: State = { setup: [...state.setup, follow], depth: state.depth + 1 };
  const page = await x.pages.reach(opened).catch(rethrowAbort);
  if (!page || page.url === snapshot.url) return null;
  // A page drawn by script after the address changes: the steps after the click wait for its heading
  // (the item's title), so that they act on the item's page, not on what the list left on screen.
  const arrived: BehaviourStep = { verb: 'verifyElement', role: 'heading', name: item, visible: true };
  const session = x.pages.session;
  if (session && (await x.pages.holding(session, [{ step: arrived }], x.budget.scaled(PRECHECK_MS))).length) {
    follow.steps.push(arrived);
    opened = { setup: [...state.setup, follow], depth: state.depth + 1 };
    x.pages.at = key(opened.setup);
  }
  return { link, follow, opened, page };
}
