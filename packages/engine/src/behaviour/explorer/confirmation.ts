import type { CandidateAction } from '../candidates';
import type { PageSnapshot } from '../snapshot';
import { revealedBy } from './actions';
import type { Exploration } from './exploration';
import { tryAction } from './try-action';
import type { State } from './types';

/** How long a confirmation's Cancel is watched for a change that must not come. */
const NOTHING_HAPPENS_MS = 1_000;

/**
 * A click that opened a confirmation (a dialog of buttons): each button after the click, as one
 * action. One that changes nothing (Cancel) is kept as a behaviour too: the page must be as it was.
 */
export async function tryConfirmation(
  x: Exploration,
  state: State,
  before: PageSnapshot,
  opener: CandidateAction,
  after: PageSnapshot,
): Promise<void> {
  const buttons = revealedBy(before, after, x.hints).filter((a) => a.kind === 'click' || a.kind === 'submit');
  // Named with the dialog's question ("Delete this ticket?"): what the buttons answer.
  const dialog = after.dialogs.find((d) => !before.dialogs.includes(d));
  const asked = dialog ? ` in ${JSON.stringify(dialog)}` : '';
  for (const button of buttons) {
    if (x.budget.out) return x.budget.skip(`${opener.description}, then ${button.description}${asked}`);
    await tryAction(x, state, {
      ...button,
      kind: 'click',
      description: `${opener.description}, then ${button.description}${asked}`,
      // What must not happen (Cancel deleting anyway) would happen after the click, not at once: the
      // checks wait a moment for it, as a tester watches the page before calling it unchanged.
      steps: [...opener.steps, ...button.steps, { verb: 'wait', ms: NOTHING_HAPPENS_MS }],
      signature: `${opener.signature}>${button.signature}`,
      mayChangeNothing: true,
    });
  }
}
