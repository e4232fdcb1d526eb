import type { TargetRole } from '@argus/protocol';
import type { Locator, Page } from 'playwright-core';
import { AbortedError } from './errors';
import { regionMatch, regionTiers, type TargetKind, targetCandidates } from './page-functions';
import { untraced } from './recording/untraced';

/** Where a step's target is looked for: `targetCandidates` and `regionTiers` (page-functions.ts, shared with the Playwright export). */
export type { TargetKind };

/**
 * Finds the element a step names, polling until `timeoutMs`: the first candidate with a visible match
 * wins. The description says which strategy matched (shown as the step's selector). Polling stops
 * once `signal` aborts (a step given up on must not act later). `within` limits the search to a
 * region (`locateRegion`); the error then names it. Its many reads are kept out of a recorded trace
 * (recording/untraced.ts): the step's action on what it found is the trace's entry.
 */
export function locate(
  page: Page,
  target: string,
  kind: TargetKind,
  timeoutMs: number,
  role?: TargetRole,
  signal?: AbortSignal,
  within?: Region,
): Promise<{ locator: Locator; selector: string }> {
  return untraced(page, () => findTarget(page, target, kind, timeoutMs, role, signal, within));
}

async function findTarget(
  page: Page,
  target: string,
  kind: TargetKind,
  timeoutMs: number,
  role?: TargetRole,
  signal?: AbortSignal,
  within?: Region,
): Promise<{ locator: Locator; selector: string }> {
  const deadline = Date.now() + timeoutMs;
  const list = targetCandidates(within?.locator ?? page, target, kind, role);
  for (;;) {
    for (const [selector, locator] of list) {
      if (signal?.aborted) throw new AbortedError();
      const visible = locator.filter({ visible: true });
      if ((await visible.count().catch(() => 0)) > 0) {
        return {
          locator: visible.first(),
          selector: within ? `${within.selector} >> ${selector}` : selector,
        };
      }
    }
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const what = role ?? (kind === 'field' ? 'field' : kind === 'check' ? 'checkbox' : 'element');
  const where = within ? ` in "${within.name}"` : '';
  const held = within ? await regionContents(within) : '';
  throw new Error(`No visible ${what} matching "${target}"${where} on ${page.url()}${held}`);
}

/**
 * What a region held when its target was not found in it, for the error: which element the region
 * turned out to be and the names of the controls a person could see in it, so a failure says whether
 * the step looked in the wrong place or the control was missing or named otherwise. '' when the region
 * is gone too.
 */
async function regionContents(within: Region): Promise<string> {
  const seen = await within.locator
    .evaluate(
      (el) => {
        const shown = (e: Element) => e.getClientRects().length > 0;
        const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
        const controls = Array.from(el.querySelectorAll('button, a[href], [role="button"], [role="link"]'))
          .filter(shown)
          .map((c) => (c.getAttribute('aria-label') ?? c.textContent ?? '').replace(/\s+/g, ' ').trim())
          .slice(0, 8);
        const role = el.getAttribute('role');
        return {
          tag: `${el.tagName.toLowerCase()}${role ? `[role=${role}]` : ''}`,
          text: text.length > 80 ? `${text.slice(0, 79)}…` : text,
          controls,
        };
      },
      null,
      { timeout: 1_000 },
    )
    .catch(() => null);
  if (!seen) return '';
  const controls = seen.controls.length
    ? `its controls: ${seen.controls.map((c) => `"${c}"`).join(', ')}`
    : 'no visible button or link';
  return ` (the region is the ${seen.tag} reading "${seen.text}"; ${controls})`;
}

/** A region of the page a step is limited to (`… in "<region>"`). */
export interface Region {
  /** What the step named. */
  name: string;
  locator: Locator;
  /** How it was found, for the step's selector. */
  selector: string;
}

/**
 * The region a step names: the innermost visible container holding `name`, one holding a text that is
 * the whole name first, then the name as words, then anywhere (case-insensitive); at each, item
 * containers (li, tr, article and their roles) before groups (`[role=group]`, fieldset, form, dialog,
 * section); of several, the first in document order.
 * Polls until `timeoutMs`. The locator is lazy: it finds the region again each time it is used, so a
 * re-rendered item is still found. Untraced, as `locate` is.
 */
export function locateRegion(
  page: Page,
  name: string,
  timeoutMs: number,
  signal?: AbortSignal,
  /** Also the smallest block holding the text, after every region (`BLOCK_TIER` of page-functions.ts). @default false */
  blocks = false,
): Promise<Region> {
  return untraced(page, () => findRegion(page, name, timeoutMs, signal, blocks));
}

async function findRegion(
  page: Page,
  name: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  blocks: boolean,
): Promise<Region> {
  const deadline = Date.now() + timeoutMs;
  const tiers = regionTiers(page, name, blocks);
  for (;;) {
    for (const [i, tier] of tiers.entries()) {
      if (signal?.aborted) throw new AbortedError();
      const first = tier.first();
      if ((await first.count().catch(() => 0)) === 0) continue;
      const tag = await first
        .evaluate((e) => e.tagName.toLowerCase(), null, { timeout: 1_000 })
        .catch(() => null);
      if (!tag) continue;
      const match = regionMatch(i, blocks);
      const how =
        match === 'exact'
          ? `:has(:text-is("${name}"))`
          : match === 'word'
            ? `:has-text(~"${name}")`
            : `:has-text("${name}")`;
      return { name, locator: first, selector: `${tag}${how}` };
    }
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(
    `No visible region (list item, row, article, group, form, dialog or section) containing "${name}" on ${page.url()}`,
  );
}
