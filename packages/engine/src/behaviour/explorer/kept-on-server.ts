import type { BrowserSession } from '../../browser-session';
import type { CandidateAction } from '../candidates';
import type { Effect } from '../diff';
import { rethrowAbort } from './sessions';

/** Which document the page is, and how many requests its scripts had sent (fetch, XHR, beacons). */
export interface RequestMark {
  document: number;
  sent: number;
}

/** Runs in the page: its document's time origin and the requests its scripts sent so far. */
function readRequestMark(): RequestMark {
  const sent = performance
    .getEntriesByType('resource')
    .filter((e) =>
      ['fetch', 'xmlhttprequest', 'beacon'].includes((e as PerformanceResourceTiming).initiatorType),
    ).length;
  return { document: performance.timeOrigin, sent };
}

/** The page's request mark, or null when it cannot be read (the page is moving). */
export async function requestMark(session: BrowserSession): Promise<RequestMark | null> {
  try {
    return await session.evaluate(readRequestMark, undefined);
  } catch (error) {
    return rethrowAbort(error);
  }
}

/**
 * Whether an action changed an item's or a control's state in place and told the server (a checkbox
 * whose change is sent with `fetch` and drawn at once, no page load): what the page drew may be all
 * there is, so the same action is tried again with a reload after it (`thenReload`), and what the
 * reload still shows is checked. A state only drawn is left alone: its reload shows nothing to check.
 */
export function changedInPlaceOnServer(
  action: CandidateAction,
  effects: Effect[],
  before: RequestMark | null,
  after: RequestMark | null,
): boolean {
  if (!before || !after || before.document !== after.document || after.sent <= before.sent) return false;
  if (action.steps.some((s) => s.verb === 'reload' || s.verb === 'navigate')) return false;
  // A checkbox anywhere, or an item's mark (its class, aria-pressed): not a menu opened beside a
  // request the page sends anyway (analytics).
  return effects.some((e) => e.kind === 'checkedChanged' || (e.kind === 'stateChanged' && e.item !== null));
}

/** The action followed by a reload of the page: its checks are what the server kept. */
export function thenReload(action: CandidateAction): CandidateAction {
  return {
    ...action,
    description: `${action.description}, then reload the page`,
    steps: [...action.steps, { verb: 'reload' }],
    signature: `${action.signature}|reload`,
  };
}
