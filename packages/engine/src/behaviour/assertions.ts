import type { CandidateAction } from './candidates';
import type { Effect } from './diff';
import type { PageSnapshot } from './snapshot';
import type { BehaviourStep } from './steps';

/**
 * A check proposed from an action's effects. Checks sharing a `group` say the same thing in
 * different words (a total with its label, or alone): the first that holds is kept.
 */
export interface ProposedAssertion {
  step: BehaviourStep;
  group?: string;
}

/** Texts not worth asserting: long, or likely to differ between two runs (times, dates, ids). */
export function isVolatile(text: string): boolean {
  return (
    text.length > 80 ||
    text.length < 2 ||
    /\b\d{1,2}:\d{2}\b/.test(text) ||
    /\b\d{4}-\d{2}-\d{2}\b/.test(text) ||
    /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/i.test(text) ||
    /\d{6,}/.test(text) ||
    /\b(ago|just now|seconds?|minutes?|today|yesterday)\b/i.test(text) ||
    /loading|please wait/i.test(text)
  );
}

/** Roles an exact count is asserted for. */
const COUNT_ROLES: ('listitem' | 'row')[] = ['listitem', 'row'];
const counted = (role: string): role is 'listitem' | 'row' => role === 'listitem' || role === 'row';
/** Entries of a list: list items, table rows, articles and repeated cards. */
const listed = (role: string) => counted(role) || role === 'article' || role === 'item';
/** Roles a control appearing or going is checked by (with `verifyElement`). */
const ELEMENT_ROLES = ['button', 'link', 'heading', 'dialog', 'tab', 'menuitem'] as const;
const elementRole = (role: string): role is (typeof ELEMENT_ROLES)[number] =>
  (ELEMENT_ROLES as readonly string[]).includes(role);

const lower = (s: string) => s.toLowerCase();

/**
 * How many entries of `role` the page shows, for an exact count; null when some of them hold nothing
 * but a control (a nav's or the filters' links): such a count says as much about the links as about
 * the data, and fails when a redesign moves them into a menu. The data entries are then checked by
 * their names instead (docs/REPAIRS.md#what-a-generated-suite-asserts).
 */
export function exactCountOf(snapshot: PageSnapshot, role: 'listitem' | 'row'): number | null {
  if (snapshot.items.some((i) => i.role === role && i.text === '')) return null;
  return snapshot.counts[role] ?? 0;
}

/**
 * The checks an action's effects call for, most telling first: items that came and went (and the
 * ones that stayed), exact counts, checked and marked states, texts that changed (the new one shown,
 * the old one gone), the URL, a field's value, dialogs, and no console errors. Each is only a
 * proposal: replays keep those that hold every time.
 */
export function proposeAssertions(
  before: PageSnapshot,
  after: PageSnapshot,
  effects: Effect[],
  action: CandidateAction,
): ProposedAssertion[] {
  const out: ProposedAssertion[] = [];
  const allAfter = lower(
    [
      ...after.texts.map((t) => t.text),
      ...after.items.map((i) => i.text),
      ...after.controls.map((c) => c.name),
    ].join('\n'),
  );
  const shownAfter = (text: string) => allAfter.includes(lower(text));
  const add = (step: BehaviourStep, group?: string) => {
    const key = JSON.stringify(step);
    if (!out.some((a) => JSON.stringify(a.step) === key)) out.push({ step, group });
  };
  const region = (item: string | null) => (item ? { region: item } : {});

  const added = effects.filter((e) => e.kind === 'itemAdded');
  const removed = effects.filter((e) => e.kind === 'itemRemoved');
  const itemEffects = effects.some(
    (e) =>
      e.kind === 'itemAdded' ||
      e.kind === 'itemRemoved' ||
      (e.kind === 'stateChanged' && e.item !== null) ||
      (e.kind === 'checkedChanged' && e.item !== null),
  );

  // Items that came: the value typed, else the item's title.
  for (const e of added) {
    if (e.text === '') continue; // an item that is only a control (a filter link) is the control's
    const text = action.value && lower(e.text).includes(lower(action.value)) ? action.value : e.label;
    if (text && !isVolatile(text)) add({ verb: 'verifyText', text, visible: true });
  }
  // What the form chose for the item that came (a priority, a category) shows in that item's row.
  const chosen = Object.values(action.filled ?? {}).filter(
    (v) => v !== action.value && v.length >= 2 && !/\d/.test(v) && !isVolatile(v),
  );
  for (const e of added) {
    const whole = lower(`${e.label} ${e.text}`);
    if (!action.value || !whole.includes(lower(action.value))) continue;
    for (const option of chosen) {
      if (whole.includes(lower(option)))
        add({ verb: 'verifyText', text: option, visible: true, region: action.value });
    }
  }
  // Items that went (unless their title still shows elsewhere).
  for (const e of removed) {
    if (e.label && !isVolatile(e.label) && !shownAfter(e.label))
      add({ verb: 'verifyText', text: e.label, visible: false });
  }
  // Exact counts, when items changed or the action was on an item.
  if (itemEffects || action.kind === 'reload') {
    for (const role of COUNT_ROLES) {
      const count = exactCountOf(after, role);
      if (count === null) continue;
      if (count > 0 || (before.counts[role] ?? 0) > 0) add({ verb: 'verifyExactCount', role, count });
    }
  }
  // Items that stayed, when others came or went (a delete or a filter must leave them be).
  if (added.length || removed.length || action.kind === 'reload') {
    const changed = new Set([...added, ...removed].map((e) => e.label));
    const stayed = after.items.filter(
      (i) => listed(i.role) && i.text !== '' && i.label && !changed.has(i.label) && !isVolatile(i.label),
    );
    const listItems = stayed.filter((i) => before.items.some((b) => b.key === i.key));
    for (const i of listItems.slice(0, action.kind === 'reload' ? 5 : 3))
      add({ verb: 'verifyText', text: i.label, visible: true });
  }
  // Checked states.
  for (const e of effects) {
    if (e.kind !== 'checkedChanged') continue;
    if (e.item) add({ verb: 'verifyChecked', region: e.item, checked: e.checked });
    else if (e.name) add({ verb: 'verifyChecked', target: e.name, checked: e.checked });
  }
  // Marked states (a class token or an aria state).
  for (const e of effects) {
    if (e.kind !== 'stateChanged') continue;
    const state = e.state.replace(/^aria-/, '').replace(/^data-state=/, '');
    if (state === 'checked' || !e.target || isVolatile(e.target)) continue;
    if (e.role === 'text') continue;
    const where = e.item && e.item !== e.target ? region(e.item) : {};
    add({ verb: 'verifyState', target: e.target, state, marked: e.marked, ...where });
  }
  // Texts that changed: the new one shows (with its label when it has one), the old one is gone.
  let texts = 0;
  for (const e of effects) {
    if (e.kind !== 'textChanged' || texts >= 6) continue;
    if (isVolatile(e.to)) continue;
    texts++;
    const group = `text:${e.to}:${e.item ?? ''}`;
    if (e.context && !isVolatile(e.context) && e.context.includes(e.to) && !/\p{L}/u.test(e.to))
      add({ verb: 'verifyText', text: e.context, visible: true, ...region(e.item) }, group);
    add({ verb: 'verifyText', text: e.to, visible: true, ...region(e.item) }, group);
    if (/[\p{L}$€£]/u.test(e.from) && e.from.length >= 3 && !isVolatile(e.from) && !shownAfter(e.from))
      add({ verb: 'verifyText', text: e.from, visible: false });
  }
  // Texts that appeared (a message, a new total line) or went. Not captions: a table's headers or a
  // filter's "Show:" come with the first row and say nothing of it (the row's own text is checked),
  // and they are what a redesign renames first.
  let appeared = 0;
  for (const e of effects) {
    if (e.kind !== 'textAdded' || appeared >= 3 || isVolatile(e.text) || e.caption) continue;
    if (e.item && added.some((a) => a.label === e.item)) continue;
    appeared++;
    const group = `added:${e.text}`;
    if (e.context && !isVolatile(e.context) && e.context.includes(e.text) && !/\p{L}/u.test(e.text))
      add({ verb: 'verifyText', text: e.context, visible: true, ...region(e.item) }, group);
    add({ verb: 'verifyText', text: e.text, visible: true, ...region(e.item) }, group);
  }
  let gone = 0;
  for (const e of effects) {
    if (e.kind !== 'textRemoved' || gone >= 2 || isVolatile(e.text) || e.text.length < 3 || e.caption)
      continue;
    if (!/\p{L}/u.test(e.text) || shownAfter(e.text)) continue;
    gone++;
    add({ verb: 'verifyText', text: e.text, visible: false });
  }
  // Where the page went.
  for (const e of effects) {
    if (e.kind !== 'urlChanged') continue;
    const from = new URL(e.from);
    const to = new URL(e.to);
    if (to.hash && to.hash !== from.hash && to.hash.length > 1) add({ verb: 'verifyUrl', text: to.hash });
    else if (to.pathname !== from.pathname) add({ verb: 'verifyUrl', text: to.pathname });
  }
  // Controls that appeared or went (a "Clear completed" button, an "Undo").
  let controls = 0;
  for (const e of effects) {
    if ((e.kind !== 'controlAdded' && e.kind !== 'controlRemoved') || controls >= 2) continue;
    if (!elementRole(e.role) || !e.name || isVolatile(e.name) || e.item) continue;
    controls++;
    add({ verb: 'verifyElement', role: e.role, name: e.name, visible: e.kind === 'controlAdded' });
  }
  for (const e of effects) {
    if (e.kind === 'dialogOpened' && e.name && !isVolatile(e.name))
      add({ verb: 'verifyElement', role: 'dialog', name: e.name, visible: true });
  }
  // The field typed into: emptied after adding, holding the new number after a quantity change.
  if (action.kind === 'add') {
    const field = after.controls.find((c) => c.name === action.control.name && c.item === null);
    if (field && field.value === '') add({ verb: 'verifyValue', field: action.control.name, value: '' });
  }
  if (action.kind === 'quantity' && action.value !== undefined) {
    const field = after.controls.find((c) => c.name === action.control.name);
    if (field?.value === action.value)
      add({ verb: 'verifyValue', field: action.control.name, value: action.value });
  }
  if (after.consoleErrors === 0) add({ verb: 'verifyNoConsoleErrors' });
  return out;
}

/** A reload that kept the items: they, their checked and marked states, and the count are checked. */
export function persistenceAssertions(
  before: PageSnapshot,
  after: PageSnapshot,
  /** Values the setup typed: an item showing one is checked by it (its label may be an author or a date). */
  typed: string[] = [],
): ProposedAssertion[] | null {
  const entries = (s: PageSnapshot) => s.items.filter((i) => listed(i.role));
  const a = entries(before);
  const b = entries(after);
  if (a.length === 0 || a.length !== b.length || a.some((i, n) => i.key !== b[n].key)) return null;
  const out: ProposedAssertion[] = [];
  for (const value of typed) {
    const shows = (i: (typeof a)[number]) => lower(i.text).includes(lower(value));
    if (!a.some(shows) || !b.some(shows)) continue;
    out.push({ step: { verb: 'verifyText', text: value, visible: true } });
    // The item's other words (its priority, its status) as they were: a reload must not change them.
    const item = a.find(shows)!;
    const words = (s: PageSnapshot) =>
      s.texts.filter((t) => t.item === item.label && !/\d/.test(t.text)).map((t) => t.text);
    const kept = words(after);
    for (const text of words(before)
      .filter((t) => kept.includes(t))
      .slice(0, 4)) {
      if (isVolatile(text) || lower(text).includes(lower(value)) || lower(value).includes(lower(text)))
        continue;
      out.push({ step: { verb: 'verifyText', text, visible: true, region: value } });
    }
  }
  // A label several items share (each comment's author) says nothing about which item stayed.
  const labels = a.map((i) => i.label);
  const identifying = (i: (typeof a)[number]) => labels.filter((l) => l === i.label).length === 1;
  for (const i of a
    .filter((i) => i.label && i.text !== '' && !isVolatile(i.label) && identifying(i))
    .slice(0, 5)) {
    out.push({ step: { verb: 'verifyText', text: i.label, visible: true } });
    const same = b.find((x) => x.key === i.key);
    if (i.checked !== null && same?.checked === i.checked)
      out.push({ step: { verb: 'verifyChecked', region: i.label, checked: i.checked } });
    for (const s of i.states) {
      if (s.startsWith('aria-') || s.startsWith('data-')) continue;
      if (same?.states.includes(s))
        out.push({ step: { verb: 'verifyState', target: i.label, state: s, marked: true } });
    }
  }
  for (const role of COUNT_ROLES) {
    const count = exactCountOf(after, role);
    if (count) out.push({ step: { verb: 'verifyExactCount', role, count } });
  }
  return out.length > 0 ? out : null;
}

/** A row that sums the rows above it, by its label: "Total", "All tickets", "Grand total", "Overall". */
const TOTAL_ROW = /^(?:(?:grand |sub)?total|all|overall|sum)\b/i;

/**
 * Summaries that hold whatever the data: for each table row labelled as a total (see `TOTAL_ROW`), the
 * fewest rows right above it (two at least) whose numbers add up to its own, as a `verifySum`. Each row
 * counts only when its text, its label aside, holds exactly one number.
 */
export function sumAssertions(snapshot: PageSnapshot): ProposedAssertion[] {
  const rows = snapshot.items
    .filter((i) => i.role === 'row' && i.label)
    .map((i) => {
      const rest = i.text.replace(i.label, '');
      const numbers = rest.match(/-?[\d.,]*\d/g) ?? [];
      return { label: i.label, value: numbers.length === 1 ? Number(numbers[0].replace(/,/g, '')) : null };
    });
  const out: ProposedAssertion[] = [];
  rows.forEach((row, t) => {
    if (!TOTAL_ROW.test(row.label) || row.value === null || !Number.isFinite(row.value)) return;
    let sum = 0;
    for (let k = t - 1; k >= 0 && t - k <= 20; k--) {
      const part = rows[k];
      if (part.value === null || !Number.isFinite(part.value) || TOTAL_ROW.test(part.label)) return;
      sum += part.value;
      if (t - k >= 2 && Math.abs(sum - row.value) < 0.005) {
        out.push({
          step: { verb: 'verifySum', parts: rows.slice(k, t).map((r) => r.label), total: row.label },
        });
        return;
      }
    }
  });
  return out;
}

/**
 * Counters that hold whatever the data: a page text of one number and words ("2 open tickets") whose
 * number is how many rows have a cell reading one of those words ("Open"), as a `verifyCountOf`.
 */
export function countAssertions(snapshot: PageSnapshot): ProposedAssertion[] {
  const rows = snapshot.items.filter((i) => i.role === 'row' && i.label);
  if (rows.length === 0) return [];
  const cells = (label: string) =>
    snapshot.texts.filter((t) => t.item === label).map((t) => t.text.trim().toLowerCase());
  const out: ProposedAssertion[] = [];
  for (const t of snapshot.texts) {
    if (t.item !== null || t.text.length > 40) continue;
    const numbers = t.text.match(/\d+/g) ?? [];
    if (numbers.length !== 1) continue;
    const words = t.text
      .replace(/\d+/, ' ')
      .replace(/[^\p{L}\s]/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (!/\p{L}{3,}/u.test(words)) continue;
    const said = new Set(words.toLowerCase().split(' '));
    const found = new Set(rows.flatMap((r) => cells(r.label)).filter((c) => said.has(c)));
    for (const cell of found) {
      const n = rows.filter((r) => cells(r.label).includes(cell)).length;
      if (n !== Number(numbers[0])) continue;
      const shown = rows.find((r) => cells(r.label).includes(cell));
      const original = snapshot.texts.find(
        (x) => x.item === shown?.label && x.text.trim().toLowerCase() === cell,
      );
      out.push({ step: { verb: 'verifyCountOf', text: words, cell: original?.text.trim() ?? cell } });
    }
  }
  return out.slice(0, 2);
}
