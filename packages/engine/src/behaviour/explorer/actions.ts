import { type ActionKind, type CandidateAction, candidateActions } from '../candidates';
import type { PageSnapshot } from '../snapshot';

/** What candidate actions are written with: a search term, and whether typed values carry the run's id. */
export type Hints = { searchTerm?: string; unique?: boolean };

/** Fields and buttons of forms that look things up or sign up rather than add to a list. */
const NOT_ADDING = /search|query|find|coupon|promo|voucher|code|e-?mail|newsletter|subscribe/i;

/** Typing and pressing Enter, or a one-field form (an "Add" button): what may add an item to a list. */
export function isAdder(action: CandidateAction): boolean {
  if (action.kind === 'add') return true;
  const fields = Object.keys(action.filled ?? {});
  return (
    action.kind === 'submit' && fields.length === 1 && !NOT_ADDING.test(`${fields[0]} ${action.control.name}`)
  );
}

/** A filled form of any size that is not a search or a sign-up: it may add to a list on another page. */
export function isListForm(action: CandidateAction): boolean {
  const fields = Object.keys(action.filled ?? {});
  return (
    action.kind === 'submit' &&
    fields.length > 0 &&
    !NOT_ADDING.test(`${fields.join(' ')} ${action.control.name}`)
  );
}

export function reloadAction(): CandidateAction {
  return {
    kind: 'reload',
    description: 'reload the page',
    steps: [{ verb: 'reload' }],
    control: { role: 'page', name: 'page', item: null, type: 'page' },
    scope: 'page',
    signature: 'reload',
  };
}

/** The items a page lists, of every kind. */
export function count(s: PageSnapshot): number {
  return (s.counts.listitem ?? 0) + (s.counts.row ?? 0) + (s.counts.article ?? 0) + (s.counts.item ?? 0);
}

/** The label of the item an adder added (its value), else the last item's that is not `other`. */
export function newItemLabel(s: PageSnapshot, adder: CandidateAction, other?: string | null): string | null {
  const value = adder.value?.toLowerCase() ?? '';
  const hit = s.items.find((i) => value && i.text.toLowerCase().includes(value) && i.label !== other);
  return hit?.label ?? s.items.filter((i) => i.label !== other).at(-1)?.label ?? null;
}

/** A page's address without its fragment and query: the page, not one of its views. */
export function strip(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

/** The actions an action brought onto the page (a dialog's form or buttons): those `before` did not offer. */
export function revealedBy(before: PageSnapshot, after: PageSnapshot, hints: Hints): CandidateAction[] {
  const known = new Set(candidateActions(before, 0, hints).map((a) => a.signature));
  return candidateActions(after, 0, hints).filter((a) => !known.has(a.signature));
}

const linkFirst = (a: CandidateAction) => (a.kind === 'link' ? 0 : 1);

/**
 * Adding first, then checkboxes, item controls, page buttons, links, fields, editing; within that,
 * the actions that hold more of the `focus` words first; the same item control on at most
 * `maxPerTemplate` items.
 */
export function orderActions(
  actions: CandidateAction[],
  focusWords: string[],
  maxPerTemplate: number,
  linksFirst = false,
): CandidateAction[] {
  const rank: Record<ActionKind, number> = {
    add: 0,
    submit: 1,
    check: 2,
    hoverClick: 3,
    click: 4,
    quantity: 5,
    link: 6,
    select: 7,
    edit: 8,
    reload: 9,
    load: 10,
  };
  const focus = focusWords.map((w) => w.toLowerCase()).filter((w) => w.length > 2);
  // The more of the focus's words an action's description holds, the sooner it is tried.
  const unfocused = (a: CandidateAction) =>
    -focus.filter((w) => a.description.toLowerCase().includes(w)).length;
  const perTemplate = new Map<string, number>();
  return [...actions]
    .sort((a, b) =>
      // Adding stays first: it opens the states the rest is found in.
      (a.kind === 'add') !== (b.kind === 'add')
        ? rank[a.kind] - rank[b.kind]
        : unfocused(a) - unfocused(b) ||
          (linksFirst ? linkFirst(a) - linkFirst(b) : 0) ||
          rank[a.kind] - rank[b.kind],
    )
    .filter((a) => {
      const n = perTemplate.get(a.signature) ?? 0;
      perTemplate.set(a.signature, n + 1);
      return a.scope === 'page' || n < maxPerTemplate;
    });
}
