import { type CandidateAction, candidateActions } from '../candidates';
import type { PageSnapshot } from '../snapshot';
import { isAdder, isListForm, revealedBy } from './actions';
import type { Exploration } from './exploration';
import { exploreList } from './list';
import { tryAction } from './try-action';
import type { State } from './types';

/**
 * The forms a click revealed (a dialog's), each tried as the click then the filled form; one that
 * adds an item opens the list's states, as the start page's adder would.
 */
export async function tryOpenedForms(
  x: Exploration,
  root: State,
  before: PageSnapshot,
  opener: CandidateAction,
  after: PageSnapshot,
): Promise<void> {
  const revealed = revealedBy(before, after, x.hints).filter((a) => a.kind === 'submit');
  for (const form of revealed) {
    if (x.budget.out) return;
    // The list is explored from one adder; the form's other ways (sent blank) are still tried.
    if (x.listExplored && (isAdder(form) || isListForm(form))) continue;
    const composite: CandidateAction = {
      ...form,
      description: `${opener.description}, then ${form.description}`,
      steps: [...opener.steps, ...form.steps],
      signature: `${opener.signature}>${form.signature}`,
    };
    const result = await tryAction(x, root, composite);
    // The second item goes in the same way, with the form's next values.
    const next = candidateActions(after, 1, x.hints).find((a) => a.signature === form.signature);
    if (next) {
      x.secondAdder.set(composite.signature, {
        ...next,
        description: `${opener.description}, then ${next.description}`,
        steps: [...opener.steps, ...next.steps],
        signature: composite.signature,
      });
    }
    if (result?.addedItem && x.maxDepth >= 1) {
      x.listExplored = true;
      await exploreList(x, composite);
    }
  }
}
