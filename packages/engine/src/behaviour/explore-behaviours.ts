import type { SessionOpener } from '../browser-pool';
import { AbortedError } from '../errors';
import { resolveWebUrl } from '../web-url';
import { type CandidateAction, candidateActions } from './candidates';
import { isAdder, isListForm } from './explorer/actions';
import { Exploration } from './explorer/exploration';
import { exploreList } from './explorer/list';
import { tryOpenedForms } from './explorer/opened-forms';
import { exploreOpening, remember } from './explorer/opening';
import { rethrowAbort } from './explorer/sessions';
import { tryAction } from './explorer/try-action';
import type { Behaviour, BehaviourExploreOptions, State, Tried } from './explorer/types';
import type { PageSnapshot } from './snapshot';

export type { Behaviour, BehaviourExploreOptions } from './explorer/types';

/** Kept back while exploring a page for checking how it opens (at reference latency). */
const LOAD_RESERVE_MS = 4_000;

/**
 * Explores an app by acting: from the start page it tries each candidate action (type and press
 * Enter, submit, click, check, select, follow in-page links, hover to reveal, double-click to edit),
 * diffs a snapshot before and after, and keeps those with effects as behaviours. After an action
 * that adds an item, it explores the new item's controls (with a second item beside it, so deleting
 * or filtering has something to leave alone), and after completing one of two, the page's filters,
 * clear-completed and reload. Each behaviour is replayed in fresh sessions and keeps only the checks
 * that held every time. Bounded by actions, depth and time; stopped by the signal.
 */
export async function exploreBehaviours(
  pool: SessionOpener,
  startUrl: string,
  options: BehaviourExploreOptions = {},
): Promise<Behaviour[]> {
  const explorer = new BehaviourExplorer(new Exploration(pool, resolveWebUrl(startUrl), options));
  return explorer.run();
}

/**
 * The explorer's core: the pages in turn, and on each the start page's actions, adders first. Each
 * strategy is a module of `explorer/`: the list's states (list.ts), an item's own page (item-page.ts),
 * confirmations (confirmation.ts), forms a click opens (opened-forms.ts), the site's other pages
 * (revisit-pages.ts), how the page opens (opening.ts); each action is tried and checked by
 * try-action.ts and replayed by verify.ts, within the budget (budget.ts).
 */
class BehaviourExplorer {
  constructor(private readonly x: Exploration) {}

  async run(): Promise<Behaviour[]> {
    const { x } = this;
    const pages = x.options.pages ?? [];
    try {
      await this.explorePage(x.startUrl, true);
      for (const [i, page] of pages.entries()) {
        if (x.budget.out) {
          for (const rest of pages.slice(i)) x.budget.skip(`the page ${rest}`);
          break;
        }
        let url: string;
        try {
          url = resolveWebUrl(page, x.startUrl);
        } catch {
          continue;
        }
        if (new URL(url).origin !== new URL(x.startUrl).origin || url === x.startUrl) continue;
        await this.explorePage(url, false);
      }
    } catch (error) {
      if (!(error instanceof AbortedError) && !x.signal?.aborted) throw error;
    } finally {
      await x.pages.letGo();
      x.options.onSummary?.(x.budget.summary(x.states.size, x.found.length));
    }
    return x.found;
  }

  private async explorePage(url: string, deep: boolean): Promise<void> {
    const { x } = this;
    x.pages.url = url;
    x.pages.at = null;
    const root: State = { setup: [], depth: 0 };
    const snapshot = await x.pages.reach(root).catch(rethrowAbort);
    if (!snapshot) return;
    x.values = new Map();
    remember(x, snapshot);
    x.budget.reserve = LOAD_RESERVE_MS;
    try {
      await this.exploreFrom(root, snapshot, deep);
    } finally {
      x.budget.reserve = 0;
    }
    if (!x.budget.out) await exploreOpening(x, root, snapshot);
    else x.budget.skip('how the page opens');
  }

  private async exploreFrom(root: State, snapshot: PageSnapshot, deep: boolean): Promise<void> {
    const { x } = this;
    const candidates = x.order(candidateActions(snapshot, 0, x.hints));
    // Adding comes first: it opens the states the rest is explored in.
    const adders: { action: CandidateAction; result: Tried }[] = [];
    for (const action of candidates.filter((a) => isAdder(a))) {
      if (x.budget.out) return x.budget.skip(candidates);
      const result = await tryAction(x, root, action);
      if (result?.addedItem) adders.push({ action, result });
    }
    // The list is explored once: from the start page's adder, else from the first page that has one
    // (a form on its own page that adds to a list on another, as server-rendered apps do).
    const adder = deep || !x.listExplored ? adders[0] : undefined;
    if (adder && x.maxDepth >= 1) {
      x.listExplored = true;
      await exploreList(x, adder.action);
    }
    const rest = candidates.filter((a) => !isAdder(a));
    for (const [i, action] of rest.entries()) {
      if (x.budget.out) return x.budget.skip(rest.slice(i));
      const result = await tryAction(x, root, action);
      // A button that opens a form (a "New ticket" dialog): the form, filled and sent after the click,
      // is tried as one action, and adds to the list like a form that is always there.
      if (result?.after && action.kind === 'click' && action.scope === 'page' && !x.listExplored) {
        await tryOpenedForms(x, root, snapshot, action, result.after);
      }
      // A form of several fields that added an item (an expense, a contact) opens the list's states too.
      if (result?.addedItem && isListForm(action) && !x.listExplored && x.maxDepth >= 1) {
        x.listExplored = true;
        await exploreList(x, action);
      }
    }
  }
}
