import type { TargetRole } from '@argus/protocol';
import type { Locator, Page } from 'playwright-core';
import { lookupOf } from '../failure/step-target';
import { locate, locateRegion } from '../locate';
import { REF_ATTR, REGION_ATTR } from './page-controls';
import { parses } from './repairable';

/**
 * Marks on the page the element each of the case's other steps acts on or checks, where it is on the
 * page now (one quick look each, no waiting): what a replacement should sit beside (the field just
 * filled, the list the next step checks), and what it must not be (a control the case already uses for
 * another purpose). Steps naming the failed step's own target are left out: they are being replaced.
 */
export async function markStepTargets(
  page: Page,
  steps: string[],
  skip: (index: number) => boolean,
  signal?: AbortSignal,
): Promise<void> {
  for (const [index, line] of steps.entries()) {
    if (skip(index) || signal?.aborted) continue;
    const step = parses(line);
    const lookup = step ? lookupOf(step) : null;
    if (!lookup?.target) continue;
    const element = await findStepElement(page, lookup, signal).catch(() => null);
    if (!element) continue;
    await element
      .evaluate(
        (el, { attr, index }) => {
          const had = el.getAttribute(attr);
          el.setAttribute(attr, had ? `${had} ${index}` : String(index));
        },
        { attr: REF_ATTR, index },
        { timeout: 1_000 },
      )
      .catch(() => undefined);
  }
}

/** Marks the region the failed step names, when it is still on the page (one quick look). */
export async function markRegion(
  page: Page,
  region: string | undefined,
  signal?: AbortSignal,
): Promise<void> {
  if (!region) return;
  const found = await locateRegion(page, region, 1, signal).catch(() => null);
  await found?.locator
    .evaluate((el, attr) => el.setAttribute(attr, ''), REGION_ATTR, { timeout: 1_000 })
    .catch(() => undefined);
}

/** The element a step's lookup names on the page now (one quick look), or null. */
export async function findStepElement(
  page: Page,
  lookup: NonNullable<ReturnType<typeof lookupOf>>,
  signal?: AbortSignal,
): Promise<Locator | null> {
  const within = lookup.region ? await locateRegion(page, lookup.region, 1, signal) : undefined;
  if (lookup.kind === 'text') {
    const text = (within?.locator ?? page).getByText(lookup.target).filter({ visible: true }).first();
    return (await text.count()) > 0 ? text : null;
  }
  const role = lookup.role as TargetRole | undefined;
  const { locator } = await locate(page, lookup.target, lookup.kind, 1, role, signal, within);
  return locator;
}
