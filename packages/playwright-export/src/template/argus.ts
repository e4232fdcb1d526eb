/**
 * What the exported tests share: how Argus finds what a step names, and the checks Playwright has no
 * single call for. Each helper does what Argus's engine does for the same step
 * (packages/engine/src/steps/ and locate.ts in Argus), so this project's verdicts are Argus's: the
 * order targets are looked for in and what runs in the page are Argus's own code, copied below.
 */
import { test as base, expect, type Locator, type Page } from '@playwright/test';

export { expect };

// ---- Copied from Argus's packages/engine/src/page-functions.ts by embed-support.mjs: edit it there. ----
// The step semantics Argus's engine and an exported Playwright project share: how a target named in
// plain words is looked for, and the functions that run in the page (counts, sums, marks, checks).
// packages/playwright-export copies this file as it is into its support file (tests/support/argus.ts
// of every export): after editing it, run `node packages/playwright-export/embed-support.mjs` (a unit
// test fails while the copy differs). So it imports nothing, and each function handed to `evaluate`
// holds everything it uses: it runs in the page, where nothing of this module exists.

/** What a target is for: 'text' prefers what a person reads, 'field' a form field, 'check' a checkbox or radio. */
export type TargetKind = 'click' | 'text' | 'field' | 'check' | 'any';

/** What the lookups use of Playwright's Page and Locator (playwright-core's and @playwright/test's alike). */
export interface Lookup<L> {
  getByRole(role: string, options?: { name?: string | RegExp; exact?: boolean; includeHidden?: boolean }): L;
  getByText(text: string | RegExp, options?: { exact?: boolean }): L;
  getByLabel(text: string | RegExp, options?: { exact?: boolean }): L;
  getByPlaceholder(text: string): L;
  locator(selector: string): L;
}

/** What the lookups use of a Playwright Locator besides finding inside it. */
export interface Narrowing<L> extends Lookup<L> {
  filter(options: { visible?: boolean; hasText?: string | RegExp; has?: L; hasNot?: L }): L;
  first(): L;
  count(): Promise<number>;
}

/** A target written as CSS (`#id`, `.class`, `[attr]`, `tag.class`) is also tried as a selector. */
const CSS_LIKE = /^([#.[]|[a-z]+[#.[:>])/i;

/**
 * How closely a name found matches the one a step gives, best first: the whole name, the name as whole
 * words inside a longer one, any part of it. 'Buy milk' then picks the item called exactly that over
 * 'Buy milk s73fgm', and 'Add' the button "Add task" over "Address book".
 */
export const NAME_MATCHES = ['exact', 'word', 'part'] as const;
export type NameMatch = (typeof NAME_MATCHES)[number];

/** `name` as whole words: not inside a longer word, in any letter case, with any run of spaces. */
export function wordsOf(name: string): RegExp {
  const escaped = name
    .trim()
    .replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
    .replace(/\s+/g, '\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu');
}

/**
 * The places a target named in plain words may be, most specific first, each with how it is described
 * (the step's selector): the first with a visible match wins. Every exact match of the name comes
 * before any match of it as words, and those before any match of a part (`NAME_MATCHES`); within each,
 * what the kind prefers first.
 */
export function targetCandidates<L>(
  root: Lookup<L>,
  target: string,
  kind: TargetKind,
  role?: string,
): [string, L][] {
  const list: [string, L][] = [];
  const words = wordsOf(target);
  const roleNamed = (r: string) => {
    list.push([`role=${r}[name="${target}" exact]`, root.getByRole(r, { name: target, exact: true })]);
  };
  const roleWords = (r: string) => {
    list.push([`role=${r}[name~="${target}"]`, root.getByRole(r, { name: words })]);
  };
  const rolePart = (r: string) => {
    list.push([`role=${r}[name*="${target}"]`, root.getByRole(r, { name: target })]);
  };
  if (role) {
    roleNamed(role);
    roleWords(role);
    rolePart(role);
    return list;
  }
  if (kind === 'field') {
    list.push([`label="${target}"`, root.getByLabel(target, { exact: true })]);
    list.push([`label~="${target}"`, root.getByLabel(words)]);
    list.push([`label*="${target}"`, root.getByLabel(target)]);
    list.push([`placeholder="${target}"`, root.getByPlaceholder(target)]);
    list.push([`role=textbox[name*="${target}"]`, root.getByRole('textbox', { name: target })]);
    // A tiny CSS.escape (Node has none): quotes and backslashes in an attribute value.
    list.push([`[name="${target}"]`, root.locator(`[name="${target.replace(/["\\]/g, '\\$&')}"]`)]);
  } else if (kind === 'check') {
    for (const add of [roleNamed, roleWords, rolePart]) for (const r of ['checkbox', 'radio']) add(r);
    list.push([`label="${target}"`, root.getByLabel(target, { exact: true })]);
    list.push([`label*="${target}"`, root.getByLabel(target)]);
  } else if (kind === 'text') {
    list.push([`text="${target}"`, root.getByText(target, { exact: true })]);
    for (const r of ['button', 'link']) roleNamed(r);
    list.push([`text~="${target}"`, root.getByText(words)]);
    list.push([`text*="${target}"`, root.getByText(target)]);
    list.push([`label="${target}"`, root.getByLabel(target, { exact: true })]);
  } else {
    for (const r of ['button', 'link', 'tab', 'menuitem']) roleNamed(r);
    list.push([`label="${target}"`, root.getByLabel(target, { exact: true })]);
    list.push([`text="${target}"`, root.getByText(target, { exact: true })]);
    for (const r of ['button', 'link']) roleWords(r);
    list.push([`label~="${target}"`, root.getByLabel(words)]);
    list.push([`text~="${target}"`, root.getByText(words)]);
    for (const r of ['button', 'link']) rolePart(r);
    list.push([`label*="${target}"`, root.getByLabel(target)]);
    list.push([`text*="${target}"`, root.getByText(target)]);
  }
  if (CSS_LIKE.test(target)) list.push([target, root.locator(target)]);
  return list;
}

/**
 * The containers a region (`… in "<region>"`) can be, by preference: an item of a list or table first,
 * then larger groupings. Within a tier the innermost container wins (nested lists: the inner item).
 */
export const REGION_TIERS = [
  'li, [role="listitem"], tr, [role="row"], article, [role="article"]',
  '[role="group"], fieldset, form, dialog, [role="dialog"], [role="alertdialog"], section, [role="region"]',
  '[class*="item" i], [class*="row" i], [class*="card" i], [class*="entry" i], [class*="line-" i], [class*="-line" i]',
];
/**
 * For a control named by its place alone (`Click the button in "Walk the dog"`), when no region above
 * holds the text: the smallest block that does (an icon button beside a heading sits in no list or
 * form, only in the heading's box).
 */
export const BLOCK_TIER = 'div, header, footer, aside, nav, main, td, th';

/**
 * One locator per tier (`REGION_TIERS`, then `BLOCK_TIER` with `blocks`) and match, every tier's exact
 * match first (`NAME_MATCHES`): its innermost visible containers holding `name`, that is those with no
 * container of the same tier inside that holds it too. Exact: a text of the container (one text node,
 * spaces aside) is the whole name, so 'in "Buy milk"' is the row of "Buy milk", not of "Buy milk
 * s73fgm"; word: the name as whole words; part: anywhere (both in any letter case). Lazy: a
 * re-rendered item is found again each time it is used. `regionMatch` tells which match an index is.
 */
export function regionTiers<L extends Narrowing<L>>(page: Lookup<L>, name: string, blocks: boolean): L[] {
  const tiers = blocks ? [...REGION_TIERS, BLOCK_TIER] : REGION_TIERS;
  const exact = page.locator(`xpath=descendant-or-self::*[text()[normalize-space(.)=${xpathLiteral(name)}]]`);
  const holding = (css: string, match: NameMatch) => {
    const all = page.locator(css);
    if (match === 'exact') return all.filter({ has: exact, visible: true });
    return all.filter({ hasText: match === 'word' ? wordsOf(name) : name, visible: true });
  };
  return NAME_MATCHES.flatMap((match) =>
    tiers.map((css) => holding(css, match).filter({ hasNot: holding(css, match) })),
  );
}

/** Which match (`NAME_MATCHES`) the locator at `index` of `regionTiers` is. */
export function regionMatch(index: number, blocks: boolean): NameMatch {
  const perMatch = REGION_TIERS.length + (blocks ? 1 : 0);
  return NAME_MATCHES[Math.min(NAME_MATCHES.length - 1, Math.floor(index / perMatch))];
}

/** `text` as an XPath string literal (XPath 1.0 has no escapes: a text with both quotes is a concat). */
function xpathLiteral(text: string): string {
  const s = text.replace(/\s+/g, ' ').trim();
  if (!s.includes('"')) return `"${s}"`;
  if (!s.includes("'")) return `'${s}'`;
  return `concat(${s
    .split('"')
    .map((part) => `"${part}"`)
    .join(`, '"', `)})`;
}

/** An item (li, tr, article, listitem, row), for revealing a control shown only while its item is hovered. */
const ITEM_XPATH = 'self::li or self::tr or self::article or @role="listitem" or @role="row"';

/**
 * The item holding a button or link that is there but hidden (shown only on hover), when there is one:
 * hovering it is how a person reveals the control.
 */
export async function hiddenControlItem<L extends Narrowing<L>>(
  page: Lookup<L>,
  target: string,
  role: string | undefined,
): Promise<L | null> {
  for (const r of role ? [role] : ['button', 'link']) {
    const hidden = page.getByRole(r, { name: target, includeHidden: true }).filter({ visible: false });
    if ((await hidden.count().catch(() => 0)) === 0) continue;
    const item = hidden.first().locator(`xpath=ancestor::*[${ITEM_XPATH}][1]`).filter({ visible: true });
    if ((await item.count().catch(() => 0)) > 0) return item.first();
  }
  return null;
}

/**
 * Runs in the page, over a region's visible controls of one role: the index of the first with no name
 * of its own (an icon), else -1. "The button in <row>" names it when the row also has named ones
 * ("Mark as paid"): those are named by their text.
 */
export function namelessIndex(els: Element[]): number {
  return els.findIndex(
    (el) =>
      !(el.textContent ?? '').trim() &&
      !el.getAttribute('aria-label') &&
      !el.getAttribute('aria-labelledby') &&
      !el.getAttribute('title') &&
      !(el instanceof HTMLInputElement && el.value),
  );
}

/** Runs in the page: whether a checkbox or radio (native, or by `aria-checked`) is checked. */
export function checkedNow(e: Element): boolean {
  return e instanceof HTMLInputElement ? e.checked : e.getAttribute('aria-checked') === 'true';
}

/** Whether an element is marked with a state, and what was looked at. */
export interface Marks {
  marked: boolean;
  /** The elements looked at, from the item down to the target, with their classes and states. */
  chain: string;
}

/**
 * Runs in the page: whether an element is "marked" with a state: it, or an ancestor up to its nearest
 * item container (li, tr, article, listitem, row), has a class `<state>` or `is-<state>`,
 * `aria-<state>="true"` (`aria-current`: any value but "false"), `data-state`/`data-status` equal to
 * the state, or the native state a person sees; case-insensitive.
 */
export function readMarks(target: Element, state: string): Marks {
  const NATIVE_STATES: Record<string, string> = {
    disabled: ':disabled',
    enabled: ':enabled',
    checked: ':checked',
    selected: 'option:checked',
    open: '[open]',
    required: ':required',
    readonly: ':read-only:is(input, textarea)',
  };
  const s = state.trim().toLowerCase();
  const item = target.closest('li, tr, article, [role="listitem"], [role="row"]');
  const chain: Element[] = [];
  // A label's state is its control's ("Unread" names a radio button it holds or points to).
  const control = target instanceof HTMLLabelElement ? target.control : null;
  if (control) chain.push(control);
  for (let e: Element | null = target; e; e = e.parentElement) {
    chain.push(e);
    if (!item || e === item) break;
  }
  const isMarked = (e: Element) => {
    const classes = [...e.classList].map((c) => c.toLowerCase());
    if (classes.includes(s) || classes.includes(`is-${s}`)) return true;
    const aria = /^[a-z]+$/.test(s) ? e.getAttribute(`aria-${s}`) : null;
    if (aria !== null && (s === 'current' ? aria.toLowerCase() !== 'false' : aria.toLowerCase() === 'true')) {
      return true;
    }
    // Native states a person sees (a greyed-out button, an open disclosure) count as marks too.
    const native = NATIVE_STATES[s];
    if (native && e.matches(native)) return true;
    return ['data-state', 'data-status'].some((a) => e.getAttribute(a)?.trim().toLowerCase() === s);
  };
  const describe = (e: Element) => {
    const classes = [...e.classList].map((c) => `.${c}`).join('');
    const states = [...e.attributes]
      .filter(
        (a) =>
          a.name.startsWith('aria-') ||
          ['data-state', 'data-status', 'disabled', 'open', 'readonly', 'required'].includes(a.name),
      )
      .filter((a) => a.name !== 'aria-label' && a.name !== 'aria-labelledby' && a.name !== 'aria-describedby')
      .map((a) => `[${a.name}="${a.value}"]`)
      .join('');
    return `${e.tagName.toLowerCase()}${classes}${states}`;
  };
  return {
    marked: chain.some(isMarked),
    chain: chain.reverse().map(describe).join(' > '),
  };
}

/**
 * Runs in the page: the number of each named row: a table row (or role=row) whose first cell reads the
 * name (case and spacing aside), and the one number in the rest of its text; null for a row not found
 * or not holding exactly one number. Money reads as its amount ("$1,250.50" is 1250.5).
 */
export function readRowNumbers(wanted: string[]): (number | null)[] {
  const clean = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
  const rows = Array.from(document.querySelectorAll('tr, [role="row"]')).filter(
    (row) => (row as HTMLElement).offsetParent !== null || row.getClientRects().length > 0,
  );
  return wanted.map((name) => {
    const row = rows.find(
      (r) =>
        clean(r.querySelector('th, td, [role="rowheader"], [role="cell"]')?.textContent ?? null) ===
        clean(name),
    );
    if (!row) return null;
    const rest = clean(row.textContent).replace(clean(name), '');
    const numbers = rest.match(/-?[\d.,]*\d/g) ?? [];
    if (numbers.length !== 1) return null;
    return Number(numbers[0].replace(/,/g, ''));
  });
}

/** What is wrong with the `parts` rows' numbers adding up to the `total` row's (to the cent), in words; '' when they do. */
export function sumProblem(values: (number | null)[], parts: string[], total: string): string {
  const names = [...parts, total];
  const missing = names.filter((_, i) => values[i] === null || !Number.isFinite(values[i]));
  if (missing.length > 0)
    return `Expected rows ${names.map((n) => `"${n}"`).join(', ')} each with one number, but found none for ${missing.map((n) => `"${n}"`).join(', ')}`;
  const numbers = values as number[];
  const sum = numbers.slice(0, -1).reduce((a, b) => a + b, 0);
  const expected = numbers[numbers.length - 1];
  if (Math.abs(sum - expected) < 0.005) return '';
  return `Expected ${parts.map((p) => `"${p}"`).join(' + ')} (${numbers.slice(0, -1).join(' + ')} = ${Math.round(sum * 100) / 100}) to add up to "${total}" (${expected})`;
}

/**
 * Runs in the page: the number shown with `text` (the smallest visible element reading "<n> <text>",
 * each word singular or plural), and how many visible rows have a cell reading `cell` (case and
 * spacing aside).
 */
export function readCountOf({ text, cell }: { text: string; cell: string }): {
  shown: number | null;
  rows: number;
} {
  const clean = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();
  const shown = (el: Element) =>
    el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const words = clean(text)
    .split(' ')
    .map((w) => `${w.replace(/s$/i, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:e?s)?`);
  const pattern = new RegExp(`(?:^|\\D)(\\d+)\\s*${words.join('\\s+')}(?:$|[^\\p{L}])`, 'iu');
  let best: { length: number; n: number } | null = null;
  for (const el of Array.from(document.body.querySelectorAll('*'))) {
    if (el.closest('script, style, template') || !shown(el)) continue;
    const content = clean(el.textContent);
    if (content.length > 200) continue;
    const m = pattern.exec(content);
    if (m && (best === null || content.length < best.length))
      best = { length: content.length, n: Number(m[1]) };
  }
  const wanted = clean(cell).toLowerCase();
  const rows = Array.from(document.querySelectorAll('tr, [role="row"]')).filter(
    (row) =>
      shown(row) &&
      Array.from(row.querySelectorAll('td, th, [role="cell"], [role="gridcell"]')).some(
        (c) => clean(c.textContent).toLowerCase() === wanted,
      ),
  ).length;
  return { shown: best?.n ?? null, rows };
}

/**
 * Runs in the page: whether the element with focus is editable (a text field, a text area, something
 * contenteditable), and what it is, in words, for a step that needs one.
 */
export function readFocus(): { editable: boolean; what: string } {
  let e = document.activeElement;
  while (e?.shadowRoot?.activeElement) e = e.shadowRoot.activeElement;
  if (!e || e === document.body || e === document.documentElement)
    return { editable: false, what: 'nothing' };
  const el = e as HTMLElement;
  const plain = [
    'checkbox',
    'radio',
    'button',
    'submit',
    'reset',
    'file',
    'image',
    'range',
    'color',
    'hidden',
  ];
  const editable =
    el.isContentEditable ||
    (el instanceof HTMLInputElement && !plain.includes(el.type) && !el.readOnly && !el.disabled) ||
    (el instanceof HTMLTextAreaElement && !el.readOnly && !el.disabled);
  const labelled = el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent;
  const name = (labelled ?? el.textContent ?? '').trim().slice(0, 40);
  const type = el instanceof HTMLInputElement ? `[type=${el.type}]` : '';
  return { editable, what: `<${el.tagName.toLowerCase()}${type}>${name ? ` "${name}"` : ''}` };
}

/** Runs in the page: whether a field shows a validation error: aria-invalid, a visible error message tied to it, or the browser's own. */
export function readFieldError(el: Element): boolean {
  const input = el as HTMLInputElement;
  if (input.getAttribute('aria-invalid') === 'true') return true;
  const visible = (node: Element | null) =>
    !!node && (node.textContent ?? '').trim() !== '' && (node as HTMLElement).offsetParent !== null;
  for (const attr of ['aria-describedby', 'aria-errormessage']) {
    for (const id of (input.getAttribute(attr) ?? '').split(/\s+/).filter(Boolean)) {
      if (visible(document.getElementById(id))) return true;
    }
  }
  const form = input.form;
  // Native validation only shows when the form lets the browser validate.
  if (form && !form.noValidate && input.validity && !input.validity.valid) return true;
  const scope = input.closest('label, .field, .form-group, p, div') ?? form;
  return (
    !!scope && Array.from(scope.querySelectorAll('[role="alert"], .error, .invalid-feedback')).some(visible)
  );
}

/** Runs in the page: visible error messages (role="alert") and fields marked aria-invalid, in words. */
export function readVisibleErrors(): string[] {
  const shown = (el: Element) =>
    (el as HTMLElement).offsetParent !== null && (el.textContent ?? '').trim() !== '';
  const alerts = Array.from(document.querySelectorAll('[role="alert"], [aria-invalid="true"]')).filter(
    (el) => el.getAttribute('aria-invalid') === 'true' || shown(el),
  );
  return alerts.map((el) =>
    el.getAttribute('aria-invalid') === 'true'
      ? `Field "${el.getAttribute('name') ?? el.id}" is marked invalid`
      : `Error message shown: "${(el.textContent ?? '').trim()}"`,
  );
}

/** Runs in the page: the page wider than its viewport, in words with its widest element; none when it fits. */
export function readOverflow(): string[] {
  const viewport = window.innerWidth;
  const width = document.documentElement.scrollWidth;
  if (width <= viewport + 1) return [];
  let widest = '';
  let widestRight = 0;
  for (const el of Array.from(document.body.querySelectorAll('*'))) {
    const right = el.getBoundingClientRect().right;
    if (right > viewport + 1 && right > widestRight) {
      widestRight = right;
      widest =
        el.tagName.toLowerCase() + (el.id ? `#${el.id}` : el.classList.length ? `.${el.classList[0]}` : '');
    }
  }
  return [
    `Horizontal overflow: the page is ${width} px wide in a ${viewport} px viewport (widest: ${widest || 'unknown'})`,
  ];
}

/**
 * Runs in the page, over the scopes a text check looks in (the body, or a region): whether one shows
 * `text` as a person reads it, its `innerText`, whitespace and letter case aside. Playwright's text
 * lookups read the DOM's text, where two boxes laid out apart (`<span>Total: $2</span><span>Unpaid:
 * $1</span>` in a flex row) read "Total: $2Unpaid: $1"; a designer's gap for a space must not fail
 * "Total: $2 Unpaid: $1". Only a rendered element counts (a hidden one's innerText is its DOM text),
 * and none holding a list of options (its innerText reads every option of a closed select).
 */
export function readRenderedText(scopes: Element[], text: string): boolean {
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
  const squash = (s: string | null) => (s ?? '').replace(/\s+/g, '').toLowerCase();
  const wanted = norm(text);
  const letters = squash(text);
  if (wanted === '') return false;
  const LISTS = 'select, datalist';
  // biome-ignore lint/performance/useDomNodeTextContent: the text as laid out is the point, not the DOM's.
  const rendered = (el: Element) => norm((el as HTMLElement).innerText ?? '');
  for (const scope of scopes) {
    // The DOM's text, spaces aside, must hold it first: the walk below runs only when spacing differs.
    if (!squash(scope.textContent).includes(letters)) continue;
    for (const el of [scope, ...Array.from(scope.querySelectorAll('*'))]) {
      if (!squash(el.textContent).includes(letters) || el.getClientRects().length === 0) continue;
      if (!el.closest(LISTS) && !el.querySelector(LISTS) && rendered(el).includes(wanted)) return true;
    }
  }
  return false;
}
// ---- End of the copy of packages/engine/src/page-functions.ts. ----

/** What the page logged and failed to load since it last navigated, for the page-health checks. */
export interface PageHealth {
  consoleErrors: string[];
  failedRequests: string[];
}

/** What a visitor never sees: not a failure of the page-health checks. */
const UNSEEN = /\/(favicon\.ico|apple-touch-icon[^/]*\.png|site\.webmanifest)(\?|$)|\.map(\?|$)/;

export const test = base.extend<{ pageHealth: PageHealth }>({
  pageHealth: [
    async ({ page }, use) => {
      const health: PageHealth = { consoleErrors: [], failedRequests: [] };
      page.on('framenavigated', (frame) => {
        if (frame !== page.mainFrame()) return;
        health.consoleErrors.length = 0;
        health.failedRequests.length = 0;
      });
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        if (/Failed to load resource/.test(message.text()) && UNSEEN.test(message.location().url)) return;
        health.consoleErrors.push(`Console error on ${page.url()}: ${message.text()}`);
      });
      page.on('pageerror', (error) =>
        health.consoleErrors.push(`Uncaught exception on ${page.url()}: ${error.message}`),
      );
      page.on('requestfailed', (request) => {
        if (!UNSEEN.test(request.url()))
          health.failedRequests.push(`${request.url()} (${request.failure()?.errorText ?? 'failed'})`);
      });
      page.on('response', (response) => {
        if (response.status() >= 400 && !UNSEEN.test(response.url()))
          health.failedRequests.push(`${response.url()} answered ${response.status()}`);
      });
      await use(health);
    },
    { auto: true },
  ],
});

/** {{RUN_ID}}: six lowercase letters and digits, at least one of each, new for every test. */
export function makeRunId(): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const digits = '0123456789';
  const pick = (from: string) => from[Math.floor(Math.random() * from.length)];
  const chars = [pick(letters), pick(digits), ...Array.from({ length: 4 }, () => pick(letters + digits))];
  return chars.sort(() => Math.random() - 0.5).join('');
}

type Role = Parameters<Page['getByRole']>[0];
type Root = Page | Locator;
/** What a target is for: 'text' prefers what a person reads, 'check' a checkbox or radio. */
type Kind = 'click' | 'text' | 'check' | 'any';

/** How long a step may look for its target: Argus's STEP_TIMEOUT_MS, as playwright.config.ts reads it. */
const STEP_TIMEOUT = Number(process.env.STEP_TIMEOUT_MS) || 10_000;

async function firstVisible(list: Locator[], timeout = STEP_TIMEOUT): Promise<Locator | null> {
  const deadline = Date.now() + timeout;
  for (;;) {
    for (const locator of list) {
      const visible = locator.filter({ visible: true });
      if ((await visible.count().catch(() => 0)) > 0) return visible.first();
    }
    if (Date.now() >= deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function candidates(root: Root, name: string, kind: Kind, role?: Role): Locator[] {
  return targetCandidates(root, name, kind, role).map(([, locator]) => locator);
}

/**
 * The element a step names in plain words (a button's or link's text, a label, a heading, any text),
 * the most specific match first; within a region when one is given. A button or link shown only while
 * its item is hovered is revealed the way a person would: by hovering the item.
 */
export async function target(
  page: Page,
  name: string,
  options: { kind?: Kind; role?: Role; within?: Locator } = {},
): Promise<Locator> {
  const { kind = 'click', role, within } = options;
  const list = candidates(within ?? page, name, kind, role);
  const now = await firstVisible(list, 0);
  if (now) return now;
  if (kind !== 'any') {
    const item = within ?? (kind === 'check' ? null : await hiddenControlItem(page, name, role));
    if (item) await item.hover();
  }
  const found = await firstVisible(list);
  if (found) return found;
  throw new Error(
    'No visible ' +
      (role ?? (kind === 'check' ? 'checkbox' : 'element')) +
      ' matching "' +
      name +
      '" on ' +
      page.url(),
  );
}

/**
 * A text shown (or gone) within the step timeout, as Argus's engine checks it: the DOM's text
 * (`getByText`), or the text as laid out (`readRenderedText`: two boxes apart read as two words).
 */
export async function expectText(root: Root, text: string, visible: boolean): Promise<void> {
  const scope = 'goto' in root ? root.locator('body') : root;
  const shown = async () =>
    (await root.getByText(text).filter({ visible: true }).count()) > 0 ||
    (await scope.evaluateAll(readRenderedText, text).catch(() => false));
  const deadline = Date.now() + STEP_TIMEOUT;
  while ((await shown()) !== visible) {
    if (Date.now() >= deadline)
      throw new Error(
        `Expected the text "${text}" ${visible ? 'to be' : 'not to be'} visible on ${
          'goto' in root ? root.url() : root.page().url()
        }`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A field by its label (exact, then containing), its placeholder, a text box's name, or its name attribute. */
export async function field(page: Page, name: string): Promise<Locator> {
  const found = await firstVisible(targetCandidates(page, name, 'field').map(([, locator]) => locator));
  if (found) return found;
  throw new Error(`No visible field matching "${name}" on ${page.url()}`);
}

/**
 * The part of the page a step is limited to ('in "Buy milk"'): the innermost visible list item, row or
 * article showing the text, else a group, form, dialog or section; with `blocks`, else the smallest block.
 */
export async function region(page: Page, text: string, options: { blocks?: boolean } = {}): Promise<Locator> {
  const found = await firstVisible(regionTiers(page, text, options.blocks ?? false));
  if (found) return found;
  throw new Error(
    'No visible region (list item, row, article, group, form, dialog or section) containing "' +
      text +
      '" on ' +
      page.url(),
  );
}

/** The first visible control of a role in a region (for a nameless icon button, the one without a name). */
export async function controlIn(within: Locator, role: Role): Promise<Locator> {
  const controls = within.getByRole(role).filter({ visible: true });
  if ((await controls.count()) === 0) await within.hover();
  await expect(controls.first()).toBeVisible();
  if (role !== 'button') return controls.first();
  const nameless = await controls.evaluateAll(namelessIndex);
  return nameless > 0 ? controls.nth(nameless) : controls.first();
}

/**
 * Ticks or unticks a checkbox unless it already is as wanted, then waits until it is. Not
 * setChecked(): an app that redraws its list on a change replaces the element that was clicked.
 */
export async function setChecked(box: Locator, checked: boolean): Promise<void> {
  const handle = await box.elementHandle();
  if (!handle) throw new Error('The checkbox is gone');
  if ((await handle.evaluate(checkedNow)) !== checked) await handle.click();
  await expect
    .poll(async () => ((await box.count()) > 0 ? box.isChecked() : handle.evaluate(checkedNow)), {
      message: `Clicked the checkbox to ${checked ? 'check' : 'uncheck'} it`,
    })
    .toBe(checked);
}

/** The field that has focus, once an editable one has it (a text field, a text area, something contenteditable). */
export async function focusedField(page: Page): Promise<Locator> {
  await expect
    .poll(async () => (await page.evaluate(readFocus)).editable, { message: 'Expected a focused field' })
    .toBe(true);
  return page.locator('*:focus').first();
}

/**
 * Whether an element is marked with a state: it, or an ancestor up to its item (li, tr, article, a
 * listitem or row), has the class `state` or `is-state`, aria-state="true" (aria-current: any value
 * but "false"), data-state or data-status equal to it, or the native state a person sees.
 */
export async function isMarked(locator: Locator, state: string): Promise<boolean> {
  return (await locator.evaluate(readMarks, state)).marked;
}

/**
 * The number in each named table row (found by its first cell); null for a row not found or not
 * holding exactly one number. Money reads as its amount ("$1,250.50" is 1250.5).
 */
export function rowNumbers(page: Page, names: string[]): Promise<(number | null)[]> {
  return page.evaluate(readRowNumbers, names);
}

/** Whether the numbers of the `parts` rows add up to the `total` row's (to the cent). */
export async function rowsAddUp(page: Page, parts: string[], total: string): Promise<boolean> {
  return sumProblem(await rowNumbers(page, [...parts, total]), parts, total) === '';
}

/**
 * Whether the number shown with `text` ("3 open tickets", each word singular or plural) equals how
 * many visible rows have a cell reading `cell`.
 */
export async function countMatches(page: Page, text: string, cell: string): Promise<boolean> {
  const { shown, rows } = await page.evaluate(readCountOf, { text, cell });
  return shown !== null && shown === rows;
}

/** Whether a field shows a validation error: aria-invalid, a message tied to it, or the browser's own validation. */
export function showsValidationError(input: Locator): Promise<boolean> {
  return input.evaluate(readFieldError);
}

/** Visible error messages (role="alert") and fields marked aria-invalid. */
export function visibleErrors(page: Page): Promise<string[]> {
  return page.evaluate(readVisibleErrors);
}

/** Same-origin links that answer 400 or more (HEAD, then GET when HEAD is refused; at most 50). */
export async function brokenLinks(page: Page): Promise<string[]> {
  const origin = new URL(page.url()).origin;
  const links = await page
    .locator('a[href]')
    .evaluateAll((as) =>
      as.map((a) => ({ text: (a.textContent ?? '').trim(), href: (a as HTMLAnchorElement).href })),
    );
  const seen = new Set<string>();
  const broken: string[] = [];
  for (const link of links) {
    const href = link.href.split('#')[0];
    if (!href.startsWith(origin) || seen.has(href) || seen.size >= 50) continue;
    seen.add(href);
    let status = await page.request.head(href).then(
      (r) => r.status(),
      () => 0,
    );
    if (status === 0 || status === 405 || status === 501)
      status = await page.request.get(href).then(
        (r) => r.status(),
        () => 0,
      );
    if (status === 0 || status >= 400)
      broken.push(`Broken link "${link.text}" → ${href} answered ${status || 'nothing'}`);
  }
  return broken;
}

/** Images without an alt attribute (an empty one is fine: decorative). */
export function imagesWithoutAlt(page: Page): Promise<string[]> {
  return page
    .locator('img:not([alt])')
    .evaluateAll((imgs) => imgs.map((img) => `Image without alt text: ${img.getAttribute('src')}`));
}

/** Whether the page is wider than its viewport. */
export async function horizontalOverflow(page: Page): Promise<boolean> {
  return (await page.evaluate(readOverflow)).length > 0;
}

/**
 * Signs in the way a person would: opens the sign-in page, types the username into the text field
 * before the visible password field, the password into that, presses Enter (clicking the form's button
 * if Enter does nothing), and types a one-time code when the next page asks for one.
 */
export async function signIn(
  page: Page,
  login: { url: string; username: string; password: string; code?: () => string },
): Promise<void> {
  const response = await page.goto(login.url);
  expect(response?.status() ?? 200, 'the sign-in page answers').toBeLessThan(400);
  const password = page.locator('input[type="password"]').filter({ visible: true }).first();
  await expect(password, 'a password field on the sign-in page').toBeVisible();
  const username = password.locator(
    'xpath=preceding::input[not(@type) or @type="text" or @type="email" or @type="tel"][1]',
  );
  if ((await username.count()) > 0 && (await username.isVisible())) await username.fill(login.username);
  await password.fill(login.password);
  await submit(page, password);
  const code = page
    .locator(
      'input[autocomplete="one-time-code"], input[name*="code" i], input[id*="code" i], input[name*="otp" i]',
    )
    .filter({ visible: true })
    .first();
  await expect
    .poll(async () => (await password.isVisible()) === false || (await code.isVisible()), {
      message: 'Still on the sign-in page after submitting the username and password',
    })
    .toBe(true);
  if (await code.isVisible()) {
    if (!login.code)
      throw new Error('The site asks for a two-factor code, and the login names no TOTP secret');
    await code.fill(login.code());
    await submit(page, code);
    await expect(code, 'the two-factor code is accepted').toBeHidden();
  }
  await expect(password, 'signed in: the sign-in form is gone').toBeHidden();
}

/** Presses Enter in a field, then clicks its form's button if the page did not move on. */
async function submit(page: Page, input: Locator): Promise<void> {
  const before = page.url();
  await input.press('Enter');
  await page.waitForTimeout(300);
  if (page.url() !== before || !(await input.isVisible())) return;
  const button = input.locator('xpath=ancestor::form[1]').locator('button, input[type="submit"]').first();
  if ((await button.count()) > 0) await button.click();
}
