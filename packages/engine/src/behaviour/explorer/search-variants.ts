import type { CandidateAction } from '../candidates';
import type { PageSnapshot } from '../snapshot';
import type { Outcome } from './proposals';

/** Marks an action as a variant of a search (so it is not varied again). */
const VARIANT = '|spelt:';
const SEARCH_FIELD = /search|query|find|filter/i;
const listed = (role: string) => ['listitem', 'row', 'article', 'item'].includes(role);

/** The text a search action typed into a search field, or null when it is not a search. */
export function searchedText(action: CandidateAction): string | null {
  if (action.signature.includes(VARIANT)) return null;
  for (const step of action.steps) {
    if (step.verb !== 'fill' || !/\p{L}/u.test(step.value)) continue;
    if (
      SEARCH_FIELD.test(step.field) ||
      (action.control.type === 'search' && step.field === action.control.name)
    )
      return step.value;
  }
  return null;
}

/** The items a search's answer shows that hold the text searched for (case aside). */
export function matchedItems(after: PageSnapshot, text: string): string[] {
  const t = text.toLowerCase();
  return after.items
    .filter((i) => listed(i.role) && i.label && i.text.toLowerCase().includes(t))
    .map((i) => i.label);
}

/**
 * The same search as a person might also type it: in other letters' case (`MILK` for `milk`), and a
 * part of its longest word (`mil`), each a search a site is expected to answer alike.
 */
export function searchVariants(action: CandidateAction, text: string): CandidateAction[] {
  const swapped = text === text.toLowerCase() ? text.toUpperCase() : text.toLowerCase();
  const word = text.split(/\s+/).reduce((a, b) => (b.length > a.length ? b : a), '');
  const part = word.length >= 4 ? word.slice(0, Math.max(3, Math.ceil(word.length * 0.6))) : '';
  const out: CandidateAction[] = [];
  for (const [variant, how] of [
    [swapped, 'in other letters’ case'],
    [part, 'as part of a word'],
  ] as const) {
    if (!variant || variant === text) continue;
    out.push({
      ...action,
      description: `${action.description}, searching "${variant}" (${how})`,
      steps: action.steps.map((s) => (s.verb === 'fill' && s.value === text ? { ...s, value: variant } : s)),
      value: variant,
      filled: action.filled
        ? Object.fromEntries(Object.entries(action.filled).map(([k, v]) => [k, v === text ? variant : v]))
        : undefined,
      signature: `${action.signature}${VARIANT}${how}`,
    });
  }
  return out;
}

/**
 * Whether a variant's answer, on the app as it is, shows every item the plain search matched: only
 * then is it a behaviour to check (a site whose search minds the letters' case says so by its answer).
 */
export function answersAlike(matched: string[]): (o: Outcome) => boolean {
  return (o) => matched.every((label) => o.after.items.some((i) => i.label === label));
}
