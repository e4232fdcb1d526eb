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
