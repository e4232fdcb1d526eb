import { exactCountOf, isVolatile, type ProposedAssertion } from '../assertions';
import type { CandidateAction } from '../candidates';
import type { Effect } from '../diff';
import type { PageSnapshot } from '../snapshot';
import type { Exploration } from './exploration';
import type { State } from './types';
import { verify } from './verify';

/** Notes the values of the page's own texts (not items'), to know which of them change. */
export function remember(x: Exploration, snapshot: PageSnapshot): void {
  for (const t of snapshot.texts) {
    if (t.item !== null) continue;
    const seen = x.values.get(t.key) ?? new Set<string>();
    seen.add(t.text);
    x.values.set(t.key, seen);
  }
}

/**
 * How the page opens: the texts that other actions changed (counts, totals, a status) show their
 * first values, and none of the values they took elsewhere; the list's items and their count.
 */
export async function exploreOpening(x: Exploration, root: State, snapshot: PageSnapshot): Promise<void> {
  const { proposed, effects } = openingChecks(x.values, snapshot);
  if (!proposed.some((p) => p.step.verb === 'verifyText' && p.step.visible)) return;
  for (const role of ['listitem', 'row'] as const) {
    const count = exactCountOf(snapshot, role);
    if (count) proposed.push({ step: { verb: 'verifyExactCount', role, count } });
  }
  const action = openingAction();
  x.dataTexts = snapshot.items.flatMap((i) => [i.label, i.text]);
  x.budget.actions++;
  x.options.onProgress?.(`Trying: ${action.description}`);
  const assertions = await verify(x, root, action, proposed);
  if (!assertions) return;
  x.found.push({
    url: x.pages.url,
    setup: [],
    action: [],
    kind: 'load',
    description: action.description,
    control: action.control,
    setupActions: [],
    effects,
    assertions,
    itemsBefore: [],
    signature: 'load',
  });
}

/**
 * The page's own texts that took other values elsewhere (by their place), as effects of opening,
 * with checks of their first values (those with a number) and of the other values being absent.
 */
function openingChecks(
  values: Map<string, Set<string>>,
  snapshot: PageSnapshot,
): { proposed: ProposedAssertion[]; effects: Effect[] } {
  const shown = snapshot.texts.map((t) => t.text.toLowerCase()).join('\n');
  const proposed: ProposedAssertion[] = [];
  const effects: Effect[] = [];
  for (const [key, seen] of values) {
    if (seen.size < 2 || proposed.length >= 12) continue;
    const now = snapshot.texts.find((t) => t.key === key && t.item === null);
    if (!now || isVolatile(now.text)) continue;
    const dup = (text: string, visible: boolean) =>
      proposed.some(
        (p) => p.step.verb === 'verifyText' && p.step.text === text && p.step.visible === visible,
      );
    // Every such text is an effect of opening (its words name the test); those with a number are checked.
    effects.push({ kind: 'textAdded', text: now.text, item: null, context: now.context });
    if (/\d/.test(now.text) && !dup(now.text, true))
      proposed.push({ step: { verb: 'verifyText', text: now.text, visible: true } });
    for (const other of seen) {
      if (other === now.text || isVolatile(other) || other.length < 2) continue;
      if (shown.includes(other.toLowerCase()) || !/\d/.test(other) || dup(other, false)) continue;
      proposed.push({ step: { verb: 'verifyText', text: other, visible: false } });
    }
  }
  return { proposed, effects };
}

function openingAction(): CandidateAction {
  return {
    kind: 'load',
    description: 'open the page',
    steps: [],
    control: { role: 'page', name: 'page', item: null, type: 'page' },
    scope: 'page',
    signature: 'load',
  };
}
