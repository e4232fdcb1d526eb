import type { PageSnapshot, SnapshotControl } from './snapshot';
import type { BehaviourStep } from './steps';

/**
 * What an action does, for naming it and for deciding what to explore after it:
 * - `add`: type into a text field that sits outside any form (or a form without a submit button) and press Enter;
 * - `submit`: fill a form whose data stays on the site and press its submit button;
 * - `click`, `check`, `select`, `link` (an in-page or hash link), `quantity` (a number field changed);
 * - `hoverClick`: hover an item, then click a control it reveals; `edit`: double-click an item's title,
 *   type a new one into the field that opens, press Enter; `reload`: reload the page; `load`: open the
 *   page (its counts and totals as it opens).
 */
export type ActionKind =
  | 'add'
  | 'submit'
  | 'click'
  | 'check'
  | 'select'
  | 'link'
  | 'quantity'
  | 'hoverClick'
  | 'edit'
  | 'reload'
  | 'load';

export interface CandidateAction {
  kind: ActionKind;
  /** What a user reads: `type into "What needs to be done?" and press Enter`. */
  description: string;
  steps: BehaviourStep[];
  /** The control acted on: its role, accessible name, field label, and the item it sits in. */
  control: { role: string; name: string; item: string | null; type: string };
  /** The value typed or chosen, if any. */
  value?: string;
  /** Whether the control sits inside a list item or row. */
  scope: 'item' | 'page';
  /** The same action on another item or in another state has the same signature. */
  signature: string;
  /** For `submit`: every value the form was filled with, by field label. */
  filled?: Record<string, string>;
  /**
   * Doing nothing is what it should do (Cancel in a confirmation): kept as a behaviour even when the
   * page does not change, checked to show what it showed before.
   */
  mayChangeNothing?: boolean;
}

/** Controls that leave the app or end the session: never acted on. */
export const LEAVING =
  /\b(log ?out|sign ?out|log ?off|sign ?off|delete (?:my |your |the )?account|close (?:my |your )?account|deactivate|unsubscribe|cancel (?:my |your )?subscription|(?:change|reset) (?:my |your )?password|revoke|download|print|share)\b/i;

/** Values that read like items someone adds to a list. */
export const ITEM_VALUES = [
  'Buy milk',
  'Walk the dog',
  'Pay the bills',
  'Water the plants',
  'Call the plumber',
];

const COUPON = /coupon|promo|voucher|discount|gift ?card|redeem|code/i;

/**
 * A realistic value for a field, from its type and label; `index` picks among item-like values.
 * `unique` (data shared by every run) ends what names or describes a thing (a title, a comment) with
 * ` {{RUN_ID}}`, which each session fills with an id of its own.
 */
export function valueFor(label: string, type: string, index = 0, itemLike = false, unique = false): string {
  const value = plainValueFor(label, type, index, itemLike);
  const naming = ITEM_VALUES.includes(value) || value === MESSAGE || value === 'Argus Tester';
  return unique && naming ? `${value} {{RUN_ID}}` : value;
}

const MESSAGE = 'Hello, this message was sent by an Argus automated test.';

function plainValueFor(label: string, type: string, index: number, itemLike: boolean): string {
  const l = label.toLowerCase();
  if (type === 'email' || /e-?mail/.test(l)) return 'qa.tester@example.com';
  if (type === 'tel' || /phone|mobile|\btel\b/.test(l)) return '+1 555 0100';
  if (type === 'url' || /website|\burl\b/.test(l)) return 'https://example.com';
  // Money is typed with cents, as people type it: an amount that loses them shows.
  if (type === 'number' && /amount|price|cost|total|sum|fee|paid|spent|salary|budget/.test(l)) return '12.50';
  if (type === 'number' || type === 'range') return '3';
  if (type === 'date') return '2030-01-15';
  if (COUPON.test(l)) return 'NOTACODE99';
  if (/search|query|find|filter/.test(l) || type === 'search') return 'test';
  if (itemLike) return ITEM_VALUES[index % ITEM_VALUES.length];
  if (/first ?name/.test(l)) return 'Argus';
  if (/last ?name|surname/.test(l)) return 'Tester';
  if (/name/.test(l)) return 'Argus Tester';
  if (/company|organi[sz]ation/.test(l)) return 'Argus QA';
  if (/city|town/.test(l)) return 'Springfield';
  if (/zip|postal|post ?code/.test(l)) return '12345';
  if (/address|street/.test(l)) return '1 Main Street';
  if (type === 'textarea' || /message|comment|question|note|description/.test(l)) return MESSAGE;
  return ITEM_VALUES[index % ITEM_VALUES.length];
}

const TEXT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'textarea', '']);
const isTextField = (c: SnapshotControl) => c.role === 'textbox' && TEXT_TYPES.has(c.type);
const template = (name: string, item: string | null) =>
  item && name.includes(item) ? name.split(item).join('{item}') : name;
const quote = (s: string) => `"${s.length > 60 ? `${s.slice(0, 57)}…` : s}"`;

/** Code-like words the page shows ("Use SAVE10"), to try in a coupon field. */
export function codeHints(snapshot: PageSnapshot): string[] {
  const out = new Set<string>();
  for (const t of snapshot.texts) for (const m of t.text.matchAll(/\b[A-Z]{3,}[0-9]{1,4}\b/g)) out.add(m[0]);
  return [...out].slice(0, 2);
}

/**
 * The actions worth trying on a page, from its snapshot: fields to type into and submit, buttons,
 * checkboxes, selects, in-page links, number fields, controls revealed by hovering an item, item
 * titles to double-click. Nothing that leaves the site or the session: no links to other origins,
 * new windows, downloads or other schemes; no forms that post elsewhere or hold passwords or cards;
 * no log out, delete account and the like. `index` varies the values typed (a second item);
 * `hints.searchTerm` is typed into search fields (a word of something the site lists); `hints.unique`
 * makes what is typed as a name or text unique to each run (see `valueFor`).
 */
export function candidateActions(
  snapshot: PageSnapshot,
  index = 0,
  hints: { searchTerm?: string; unique?: boolean } = {},
): CandidateAction[] {
  const out: CandidateAction[] = [];
  const searching = (c: SnapshotControl) => c.type === 'search' || /search|query|find/i.test(c.name);
  const typed = (c: SnapshotControl, value: string) =>
    hints.searchTerm && searching(c) ? hints.searchTerm : value;
  const page = snapshot.url;
  const unique = hints.unique === true;
  const forms = snapshot.forms;
  const usable = (c: SnapshotControl) => !c.disabled && c.name !== '' && !LEAVING.test(c.name);
  const inFormWithSubmit = (c: SnapshotControl) => c.form !== null && forms[c.form]?.submit != null;
  const itemControls = new Set<string>();

  // Fields that take Enter: typed into, then Enter (a to-do's "What needs to be done?").
  for (const c of snapshot.controls) {
    if (!usable(c) || !isTextField(c) || c.item !== null || inFormWithSubmit(c)) continue;
    if (c.form !== null && forms[c.form] && (!forms[c.form].sameOrigin || forms[c.form].sensitive)) continue;
    const value = typed(c, valueFor(c.name, c.type, index, true, unique));
    out.push({
      kind: 'add',
      description: `type into ${quote(c.name)} and press Enter`,
      steps: [
        { verb: 'fill', field: c.name, value },
        { verb: 'press', key: 'Enter', field: c.name },
      ],
      control: { role: c.role, name: c.name, item: null, type: c.type },
      value,
      scope: 'page',
      signature: `add|${c.name}`,
    });
  }

  // Forms whose data stays on the site, filled and submitted.
  /** A form in an item with nothing to fill (a row's "Mark as paid"): its button is the item's, clicked. */
  const itemForm = (f: number) =>
    snapshot.controls.some((c) => c.form === f && c.item !== null && c.role === 'button') &&
    !snapshot.controls.some((c) => c.form === f && (isTextField(c) || c.role === 'spinbutton'));
  forms.forEach((form, f) => {
    if (!form.sameOrigin || form.sensitive || !form.submit || LEAVING.test(form.submit)) return;
    if (itemForm(f)) return;
    const fields = snapshot.controls.filter((c) => c.form === f && !c.disabled && c.name !== '');
    const hints = codeHints(snapshot);
    const variants: (string | null)[] = [null];
    if (fields.some((c) => isTextField(c) && COUPON.test(c.name))) variants.push(...hints);
    for (const code of variants) {
      const steps: BehaviourStep[] = [];
      const filled: Record<string, string> = {};
      for (const c of fields) {
        if (isTextField(c) || c.role === 'spinbutton') {
          const single = fields.filter((x) => isTextField(x)).length === 1;
          const value =
            code && COUPON.test(c.name) ? code : typed(c, valueFor(c.name, c.type, index, single, unique));
          steps.push({ verb: 'fill', field: c.name, value });
          filled[c.name] = value;
        } else if (c.role === 'combobox' && c.options.length > 1 && (c.value === '' || index > 0)) {
          // Another option for another item (a second expense in another category), so what the
          // choice decides (a filter, a total per category) has two sides to tell apart.
          const options = c.options.filter((o) => o !== '');
          let option = options[index % options.length] ?? c.options[1];
          // Choosing what is already chosen (a priority left at Normal) would leave nothing to tell apart.
          if (options.length > 1 && option.toLowerCase() === (c.value ?? '').toLowerCase())
            option = options[(index + 1) % options.length];
          steps.push({ verb: 'select', option, field: c.name });
          filled[c.name] = option;
        } else if (c.role === 'checkbox' && c.required && !c.checked) {
          steps.push({ verb: 'check', target: c.name, checked: true });
        }
      }
      if (steps.length === 0 && fields.some((c) => isTextField(c))) continue;
      steps.push({ verb: 'click', role: 'button', target: form.submit });
      const main = fields.find((c) => isTextField(c));
      out.push({
        kind: 'submit',
        description: code
          ? `submit ${quote(form.submit)} with the code ${quote(code)}`
          : `fill the form and press ${quote(form.submit)}`,
        steps,
        control: { role: 'button', name: form.submit, item: null, type: main?.type ?? 'form' },
        value: code ?? (main ? filled[main.name] : undefined),
        scope: 'page',
        signature: `submit|${form.submit}|${code ?? ''}`,
        filled,
      });
      // A required field the form's only one to type into, holding only spaces: a browser lets that
      // through, and the app must refuse it itself (forms of several fields are sent empty, below).
      const entries = fields.filter((c) => isTextField(c) || c.role === 'spinbutton');
      if (
        !code &&
        main?.required &&
        entries.length === 1 &&
        !fields.some((c) => searching(c) || COUPON.test(c.name))
      )
        out.push({
          kind: 'submit',
          description: `press ${quote(form.submit)} with only spaces in ${quote(main.name)}`,
          steps: steps.map((step) =>
            step.verb === 'fill' && step.field === main.name ? { ...step, value: '   ' } : step,
          ),
          control: { role: 'button', name: form.submit, item: null, type: 'form' },
          value: '',
          scope: 'page',
          signature: `submit|${form.submit}|blank`,
          filled: {},
        });
      // The same form sent empty, as a tester checks that it refuses what it must not take (a form
      // of several fields that adds or saves something; a one-field search or coupon is not one).
      if (!code && entries.length >= 2 && !fields.some((c) => searching(c) || COUPON.test(c.name)))
        out.push({
          kind: 'submit',
          description: `press ${quote(form.submit)} with the form empty`,
          steps: [
            ...entries
              .filter((c) => c.value !== '')
              .map((c): BehaviourStep => ({ verb: 'fill', field: c.name, value: '' })),
            { verb: 'click', role: 'button', target: form.submit },
          ],
          control: { role: 'button', name: form.submit, item: null, type: 'form' },
          value: '',
          scope: 'page',
          signature: `submit|${form.submit}|empty`,
          filled: {},
        });
    }
  });

  const seen = new Map<string, number>();
  // A control that is all its item holds (a filter link in an li) belongs to the page, not to an item.
  const own = (c: SnapshotControl): SnapshotControl =>
    c.item !== null && c.item === c.name ? { ...c, item: null } : c;
  const push = (
    control: SnapshotControl,
    action: Omit<CandidateAction, 'control' | 'scope' | 'signature'>,
  ) => {
    const c = own(control);
    const signature = `${action.kind}|${c.role}|${template(c.name, c.item)}`;
    out.push({
      ...action,
      control: { role: c.role, name: c.name, item: c.item, type: c.type },
      scope: c.item ? 'item' : 'page',
      signature,
    });
    seen.set(signature, (seen.get(signature) ?? 0) + 1);
    if (c.item) itemControls.add(c.item);
  };
  const region = (c: SnapshotControl) => (own(c).item ? { region: c.item as string } : {});

  for (const c of snapshot.controls) {
    if (c.disabled || LEAVING.test(c.name)) continue;
    if (c.role === 'checkbox' || c.role === 'switch' || c.role === 'radio') {
      if (c.form !== null && inFormWithSubmit(c)) continue;
      if (c.role === 'radio' && c.checked) continue;
      const checked = !c.checked;
      if (c.item) {
        push(c, {
          kind: 'check',
          description: `${checked ? 'check' : 'uncheck'} the checkbox in ${quote(c.item)}`,
          steps: [{ verb: 'check', checked, region: c.item }],
        });
      } else if (c.name) {
        push(c, {
          kind: 'check',
          description: `${checked ? 'check' : 'uncheck'} ${quote(c.name)}`,
          steps: [{ verb: 'check', target: c.name, checked }],
        });
      }
    } else if (c.role === 'button' && c.name) {
      // A form's own submit button is tried with its form, above (an item's form: here).
      if (c.form !== null && forms[c.form]?.submit === c.name && !itemForm(c.form)) continue;
      if (c.form !== null && forms[c.form] && (!forms[c.form].sameOrigin || forms[c.form].sensitive))
        continue;
      push(c, {
        kind: 'click',
        description: `click ${quote(c.name)}${c.item ? ` in ${quote(c.item)}` : ''}`,
        steps: [{ verb: 'click', target: c.name, role: 'button', ...region(c) }],
      });
    } else if (c.role === 'button' && !c.name && c.item) {
      // An icon-only button with no name of its own: named by its place, the button of its item.
      push(c, {
        kind: 'click',
        description: `click the button in ${quote(c.item)}`,
        steps: [{ verb: 'click', role: 'button', region: c.item }],
      });
    } else if (c.role === 'button' && !c.name && c.near) {
      // An icon-only button beside a text of its own (a bin beside a ticket's heading): by that text.
      push(
        { ...c, name: `the button beside ${c.near}` },
        {
          kind: 'click',
          description: `click the button beside ${quote(c.near)}`,
          steps: [{ verb: 'click', role: 'button', region: c.near }],
        },
      );
    } else if (c.role === 'combobox' && c.name && c.form === null) {
      const option = c.options.find((o) => o !== '' && o !== c.value && o !== c.options[0]) ?? c.options[1];
      if (!option) continue;
      push(c, {
        kind: 'select',
        description: `choose ${quote(option)} in ${quote(c.name)}`,
        steps: [{ verb: 'select', option, field: c.name }],
        value: option,
      });
    } else if (c.role === 'spinbutton' && c.name && !inFormWithSubmit(c)) {
      const current = Number(c.value);
      const value = String(Number.isFinite(current) && c.value !== '' ? current + 1 : 2);
      push(c, {
        kind: 'quantity',
        description: `change ${quote(c.name)} to ${value}`,
        steps: [
          { verb: 'fill', field: c.name, value },
          { verb: 'press', key: 'Tab', field: c.name },
        ],
        value,
      });
    } else if (c.role === 'link' && c.name && c.href && !c.leaves && inPage(c.href, page)) {
      if (/^skip\b/i.test(c.name)) continue;
      push(c, {
        kind: 'link',
        description: `follow the link ${quote(c.name)}`,
        steps: [{ verb: 'click', target: c.name, role: 'link', ...region(c) }],
      });
    } else if (['tab', 'menuitem'].includes(c.role) && c.name) {
      push(c, {
        kind: 'click',
        description: `open ${quote(c.name)}`,
        steps: [{ verb: 'click', target: c.name, ...region(c) }],
      });
    }
  }

  // Controls an item reveals on hover (a delete ×), named or, icon-only, by their place in the item.
  for (const c of snapshot.hiddenControls) {
    if (!c.item && c.near && !c.disabled) {
      // Outside any item, shown while its block is hovered: clicking it by that block reveals it.
      push(
        { ...c, name: `the button beside ${c.near}` },
        {
          kind: 'click',
          description: `hover ${quote(c.near)} and click its button`,
          steps: [{ verb: 'click', role: 'button', region: c.near }],
        },
      );
      continue;
    }
    if (!c.item || c.disabled || LEAVING.test(c.name) || c.role !== 'button') continue;
    push(c, {
      kind: 'hoverClick',
      description: c.name
        ? `hover ${quote(c.item)} and click ${quote(c.name)}`
        : `hover ${quote(c.item)} and click its button`,
      steps: [
        { verb: 'hover', target: c.item },
        c.name
          ? { verb: 'click', target: c.name, role: 'button', region: c.item }
          : { verb: 'click', role: 'button', region: c.item },
      ],
    });
  }

  // Titles of items that have controls: double-click to edit.
  for (const item of snapshot.items) {
    // List entries with controls (a to-do's title); table rows hold data, not titles to rename.
    if (!item.label || item.role !== 'listitem' || !itemControls.has(item.label)) continue;
    if (snapshot.controls.some((c) => c.role === 'link' && c.item === item.label && c.name === item.label))
      continue;
    out.push({
      kind: 'edit',
      description: `double-click ${quote(item.label)} to edit it`,
      steps: [{ verb: 'doubleClick', target: item.label, region: item.label }],
      control: { role: item.role, name: item.label, item: item.label, type: 'item' },
      scope: 'item',
      signature: 'edit|item',
    });
  }
  return out;
}

/** A same-origin page of its own that an item links to (its detail page), not an in-page filter. */
export function itemPageLink(snapshot: PageSnapshot, item: string): SnapshotControl | undefined {
  return snapshot.controls.find(
    (c) =>
      c.role === 'link' &&
      c.item === item &&
      c.name !== '' &&
      c.href !== null &&
      !c.leaves &&
      new URL(c.href).origin === new URL(snapshot.url).origin &&
      !inPage(c.href, snapshot.url) &&
      !LEAVING.test(c.name),
  );
}

/**
 * A link that filters or routes within the page: the same path with another fragment (a hash route
 * such as `#/active`) or another query (`?category=food`).
 */
function inPage(href: string, page: string): boolean {
  try {
    const to = new URL(href);
    const from = new URL(page);
    if (to.origin !== from.origin || to.pathname !== from.pathname) return false;
    if (to.search !== from.search) return true;
    return to.hash !== '' || href.endsWith('#');
  } catch {
    return false;
  }
}
