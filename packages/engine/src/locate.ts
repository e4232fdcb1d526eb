import type { TargetRole } from '@argus/protocol';
import type { Locator, Page } from 'playwright-core';
import { AbortedError } from './errors';

/** What the target is for: `text` prefers what a person reads (a double-click on an item's text). */
export type TargetKind = 'click' | 'text' | 'field' | 'check' | 'any';

/** Where a search starts: the page, or a region of it. */
type Root = Page | Locator;

const CSS_LIKE = /^([#.[]|[a-z]+[#.[:>])/i;

/** Candidate locators for a target named in plain words, most specific first. */
function candidates(root: Root, target: string, kind: TargetKind, role?: TargetRole): [string, Locator][] {
  const list: [string, Locator][] = [];
  if (role) {
    list.push([`role=${role}[name="${target}" exact]`, root.getByRole(role, { name: target, exact: true })]);
    list.push([`role=${role}[name*="${target}"]`, root.getByRole(role, { name: target })]);
    return list;
  }
  if (kind === 'field') {
    list.push([`label="${target}"`, root.getByLabel(target, { exact: true })]);
    list.push([`label*="${target}"`, root.getByLabel(target)]);
    list.push([`placeholder="${target}"`, root.getByPlaceholder(target)]);
    list.push([`role=textbox[name*="${target}"]`, root.getByRole('textbox', { name: target })]);
    list.push([`[name="${target}"]`, root.locator(`[name="${CSS.escape(target)}"]`)]);
  } else if (kind === 'check') {
    list.push([`role=checkbox[name="${target}"]`, root.getByRole('checkbox', { name: target })]);
    list.push([`role=radio[name="${target}"]`, root.getByRole('radio', { name: target })]);
    list.push([`label="${target}"`, root.getByLabel(target)]);
  } else if (kind === 'text') {
    list.push([`text="${target}"`, root.getByText(target, { exact: true })]);
    for (const r of ['button', 'link'] as const) {
      list.push([`role=${r}[name="${target}" exact]`, root.getByRole(r, { name: target, exact: true })]);
    }
    list.push([`text*="${target}"`, root.getByText(target)]);
    list.push([`label="${target}"`, root.getByLabel(target, { exact: true })]);
  } else {
    for (const r of ['button', 'link', 'tab', 'menuitem'] as const) {
      list.push([`role=${r}[name="${target}" exact]`, root.getByRole(r, { name: target, exact: true })]);
    }
    list.push([`role=button[name*="${target}"]`, root.getByRole('button', { name: target })]);
    list.push([`role=link[name*="${target}"]`, root.getByRole('link', { name: target })]);
    list.push([`label="${target}"`, root.getByLabel(target)]);
    list.push([`text="${target}"`, root.getByText(target, { exact: true })]);
    list.push([`text*="${target}"`, root.getByText(target)]);
  }
  if (CSS_LIKE.test(target)) list.push([target, root.locator(target)]);
  return list;
}

// A tiny CSS.escape for Node (the browser's is not here).
const CSS = { escape: (s: string) => s.replace(/["\\]/g, '\\$&') };

/**
 * Finds the element a step names, polling until `timeoutMs`: the first candidate with a visible match
 * wins. The description says which strategy matched (shown as the step's selector). Polling stops
 * once `signal` aborts (a step given up on must not act later). `within` limits the search to a
 * region (`locateRegion`); the error then names it.
 */
export async function locate(
  page: Page,
  target: string,
  kind: TargetKind,
  timeoutMs: number,
  role?: TargetRole,
  signal?: AbortSignal,
  within?: Region,
): Promise<{ locator: Locator; selector: string }> {
  const deadline = Date.now() + timeoutMs;
  const list = candidates(within?.locator ?? page, target, kind, role);
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
  throw new Error(`No visible ${what} matching "${target}"${where} on ${page.url()}`);
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
 * The containers a region can be, by preference: an item of a list or table first, then larger
 * groupings. Within a tier the innermost container wins (nested lists: the inner item).
 */
const REGION_TIERS = [
  'li, [role="listitem"], tr, [role="row"], article, [role="article"]',
  '[role="group"], fieldset, form, dialog, [role="dialog"], [role="alertdialog"], section, [role="region"]',
  '[class*="item" i], [class*="row" i], [class*="card" i], [class*="entry" i], [class*="line-" i], [class*="-line" i]',
];
/**
 * For a control named by its place alone (`Click the button in "Walk the dog"`), when no region above
 * holds the text: the smallest block that does (an icon button beside a heading sits in no list or
 * form, only in the heading's box).
 */
const BLOCK_TIER = 'div, header, footer, aside, nav, main, td, th';

/** An item (li, tr, article, listitem, row), for revealing a control shown only while its item is hovered. */
const ITEM_XPATH = 'self::li or self::tr or self::article or @role="listitem" or @role="row"';

/**
 * The item holding a button or link that is there but hidden (shown only on hover), when there is one:
 * hovering it is how a person reveals the control.
 */
export async function hiddenControlItem(
  page: Page,
  target: string,
  role: TargetRole | undefined,
): Promise<Locator | null> {
  const roles = role ? [role] : (['button', 'link'] as const);
  for (const r of roles) {
    const hidden = page.getByRole(r, { name: target, includeHidden: true }).filter({ visible: false });
    if ((await hidden.count().catch(() => 0)) === 0) continue;
    const item = hidden.first().locator(`xpath=ancestor::*[${ITEM_XPATH}][1]`).filter({ visible: true });
    if ((await item.count().catch(() => 0)) > 0) return item.first();
  }
  return null;
}

/**
 * The region a step names: the innermost visible container whose text contains `name`
 * (case-insensitive), preferring item containers (li, tr, article and their roles) over groups
 * (`[role=group]`, fieldset, form, dialog, section); of several, the first in document order.
 * Polls until `timeoutMs`. The locator is lazy: it finds the region again each time it is used, so a
 * re-rendered item is still found.
 */
export async function locateRegion(
  page: Page,
  name: string,
  timeoutMs: number,
  signal?: AbortSignal,
  /** Also the smallest block holding the text, after every region (`BLOCK_TIER`). @default false */
  blocks = false,
): Promise<Region> {
  const deadline = Date.now() + timeoutMs;
  const tiers = (blocks ? [...REGION_TIERS, BLOCK_TIER] : REGION_TIERS).map((css) => {
    const holding = () => page.locator(css).filter({ hasText: name, visible: true });
    // Innermost: no container of the same tier inside it holds the text too.
    return holding().filter({ hasNot: page.locator(css).filter({ hasText: name, visible: true }) });
  });
  for (;;) {
    for (const tier of tiers) {
      if (signal?.aborted) throw new AbortedError();
      const first = tier.first();
      if ((await first.count().catch(() => 0)) === 0) continue;
      const tag = await first
        .evaluate((e) => e.tagName.toLowerCase(), null, { timeout: 1_000 })
        .catch(() => null);
      if (tag) return { name, locator: first, selector: `${tag}:has-text("${name}")` };
    }
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(
    `No visible region (list item, row, article, group, form, dialog or section) containing "${name}" on ${page.url()}`,
  );
}
