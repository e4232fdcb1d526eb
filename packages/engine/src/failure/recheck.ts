import type { Step, TargetRole } from '@argus/protocol';
import type { Page } from 'playwright-core';
import { locate, locateRegion } from '../locate';
import { lookupOf } from './step-target';

/**
 * How long after a step failed its target is looked for again: long enough for what was about to
 * appear (a slow list, a late button), short enough not to hold a failed case up.
 */
export const RECHECK_DELAY_MS = 500;

/**
 * One quick look, right after a step failed not finding its target (or timing out), for that target:
 * found now, the step gave up just too early (`timing`); still missing, it is `not_found`. A single
 * pass over the ways the step would find it, no polling; answers false on any error.
 */
export async function targetAppeared(page: Page, step: Step, signal?: AbortSignal): Promise<boolean> {
  const lookup = lookupOf(step);
  if (!lookup) return false;
  await new Promise((resolve) => setTimeout(resolve, RECHECK_DELAY_MS).unref());
  if (signal?.aborted || page.isClosed()) return false;
  try {
    const within = lookup.region ? await locateRegion(page, lookup.region, 1, signal) : undefined;
    if (lookup.kind === 'text') {
      const root = within?.locator ?? page;
      return (await root.getByText(lookup.target).filter({ visible: true }).count()) > 0;
    }
    await locate(page, lookup.target, lookup.kind, 1, lookup.role as TargetRole | undefined, signal, within);
    return true;
  } catch {
    return false;
  }
}
