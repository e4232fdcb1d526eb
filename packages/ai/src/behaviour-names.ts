import type { Behaviour, Effect } from '@argus/engine';
import type { Step } from '@argus/protocol';
import {
  checksAfterReload,
  checksCounter,
  checksGone,
  checksLineTotal,
  checksShown,
  checksTotals,
  describeCheck,
  isCounter,
  MONEY,
  unkeptPromises,
} from './behaviour-promises';

// A behaviour's name, as a QA engineer would write it, from what its action did and what its steps
// check: an effect (the counter, a total, a removal, a filter, what a reload keeps) is named only when
// a check of the case sees it (behaviour-promises.ts), never from the effects alone.

const ERROR_WORDS =
  /\b(invalid|error|not valid|incorrect|wrong|failed|unknown|expired|required|not found|not saved|please enter|must be)\b/i;
const COMPLETED = /^(completed?|done|checked|finished)$/;

const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s[0].toLowerCase() + s.slice(1) : s);
export const upperFirst = (s: string) => s[0].toUpperCase() + s.slice(1);
const quoteName = (s: string) => (s.length > 40 ? `"${s.slice(0, 37)}…"` : `"${s}"`);

function textEffects(b: Behaviour): { text: string; item: string | null; changed: boolean }[] {
  const out: { text: string; item: string | null; changed: boolean }[] = [];
  for (const e of b.effects) {
    if (e.kind === 'textChanged') out.push({ text: e.to, item: e.item, changed: true });
    if (e.kind === 'textAdded') out.push({ text: e.text, item: e.item, changed: false });
  }
  return out;
}

const has = <K extends Effect['kind']>(b: Behaviour, kind: K) =>
  b.effects.filter((e): e is Extract<Effect, { kind: K }> => e.kind === kind);

/** What the case does and checks: its action's steps, then its checks. */
const stepsOf = (b: Behaviour): Step[] => [...(b.action as Step[]), ...(b.assertions as Step[])];

/**
 * What the texts that changed add up to, where a check of the case sees them: "the counter", "the
 * line total and the totals".
 */
function updates(b: Behaviour, withItem = true): string[] {
  const texts = textEffects(b);
  const steps = stepsOf(b);
  const parts: string[] = [];
  const money = texts.filter((t) => MONEY.test(t.text));
  if (withItem && money.some((t) => t.item) && checksLineTotal(steps)) parts.push('the line total');
  if (money.some((t) => !t.item) && checksTotals(steps)) parts.push('the totals');
  if (texts.some((t) => isCounter(t.text)) && checksCounter(steps)) parts.push('the counter');
  return parts;
}

/** Whether a check of the case sees something gone (what a removal or a filter promises). */
const goneChecked = (b: Behaviour) => checksGone(stepsOf(b));

export const join = (parts: string[]) =>
  parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
const andUpdates = (b: Behaviour, withItem = true) => {
  const u = updates(b, withItem);
  return u.length ? ` and updates ${join(u)}` : '';
};

/** Whether the items a behaviour hid or removed were all completed (checked or marked), or all active. */
function removedKind(b: Behaviour): 'completed' | 'active' | null {
  const removed = new Set(has(b, 'itemRemoved').map((e) => e.label));
  const items = b.itemsBefore.filter((i) => removed.has(i.label));
  if (items.length === 0) return null;
  const done = (i: (typeof items)[number]) => i.checked === true || i.states.some((s) => COMPLETED.test(s));
  if (items.every(done)) return 'completed';
  if (items.every((i) => !done(i) && (i.checked === false || b.itemsBefore.some(done)))) return 'active';
  return null;
}

/** What a list's entries are called in names: an item, whether the list is a list or a table. */
const itemNoun = (_b: Behaviour) => 'item';

/**
 * The name of a behaviour's test, from its action, its effects and what its steps check (nothing about
 * one app in particular). A name that would still promise an effect no step checks falls back to the
 * action and its first check in words.
 */
export function nameBehaviour(b: Behaviour): { name: string; core: boolean } {
  const named = nameFromEffects(b);
  if (unkeptPromises(named.name, stepsOf(b)).length === 0) return named;
  return { name: plainName(b), core: named.core };
}

/** The action and what its first check sees: 'Click "Delete" in "Buy milk": "Buy milk" is gone'. */
export function plainName(b: Behaviour): string {
  const check = (b.assertions as Step[])
    .filter((s) => s.verb !== 'verifyNoConsoleErrors')
    .map(describeCheck)
    .find((c) => c !== null);
  return `${upperFirst(b.description)}${check ? `: ${check}` : ''}`;
}

type Named = { name: string; core: boolean };

const addedItems = (b: Behaviour) => has(b, 'itemAdded').filter((e) => e.text !== '');
const removedItems = (b: Behaviour) => has(b, 'itemRemoved').filter((e) => e.text !== '');

/** Adding: a first item shown, or a second one beside the first. */
function adding(b: Behaviour): Named {
  const noun = itemNoun(b);
  const secondAdd = b.setupActions.some((a) => a.kind === b.kind && a.control.name === b.control.name);
  return secondAdd
    ? { name: `Adding a second ${noun} keeps the first${andUpdates(b, false)}`, core: true }
    : { name: `Adding an ${noun} shows it in the list${andUpdates(b, false)}`, core: true };
}

/** The name by the rules of the action's kind (each a function below). */
function nameFromEffects(b: Behaviour): Named {
  const noun = itemNoun(b);
  switch (b.kind) {
    case 'add':
      if (addedItems(b).length) return adding(b);
      break;
    case 'check':
      return nameCheck(b);
    case 'hoverClick':
    case 'click':
      return nameClick(b);
    case 'link': {
      const named = nameLink(b);
      if (named) return named;
      break;
    }
    case 'edit':
      if (addedItems(b).length || has(b, 'textChanged').length)
        return { name: `Editing an ${noun} by double-click saves the new title`, core: true };
      return { name: `Double-clicking an ${noun} ${summary(b)}`, core: false };
    case 'quantity':
      return {
        name: `Changing the quantity${b.control.item ? ` of ${b.control.item}` : ''} updates ${join(updates(b)) || 'the page'}`,
        core: true,
      };
    case 'submit':
      return nameSubmit(b);
    case 'reload': {
      const named = nameReload(b);
      if (named) return named;
      break;
    }
    case 'load':
      return { name: `The page opens showing ${join(updates(b, false)) || 'its current state'}`, core: true };
    case 'select':
      return {
        name: `Choosing ${quoteName(b.value ?? '')} in ${quoteName(b.control.name)} ${summary(b)}`,
        core: false,
      };
  }
  return { name: `${upperFirst(b.description)} ${summary(b)}`, core: false };
}

/** A checkbox: an item completed or reopened, "mark all", or another box. */
function nameCheck(b: Behaviour): Named {
  const marked = has(b, 'stateChanged').filter((e) => e.item !== null && e.role !== 'text');
  const checked = has(b, 'checkedChanged');
  const name = b.control.name;
  const noun = itemNoun(b);
  const item = b.control.item;
  const completing = marked.some((e) => e.marked && COMPLETED.test(e.state.replace(/^aria-/, '')));
  const reopening = marked.some((e) => !e.marked && COMPLETED.test(e.state.replace(/^aria-/, '')));
  if (item) {
    const on = checked.find((c) => c.item === item)?.checked ?? completing;
    if (completing || (on && !reopening))
      return { name: `Completing an ${noun} marks it completed${andUpdates(b, false)}`, core: true };
    return {
      name: `Reopening a completed ${noun} marks it active again${andUpdates(b, false)}`,
      core: true,
    };
  }
  const many = new Set(marked.map((e) => e.item)).size;
  if (many > 0 && /\ball\b/i.test(name))
    return {
      name: `${quoteName(name)} marks every ${noun} ${completing || !reopening ? 'completed' : 'active'}${andUpdates(b, false)}`,
      core: true,
    };
  return {
    name: `${checked[0]?.checked === false ? 'Unchecking' : 'Checking'} ${quoteName(name)} ${summary(b)}`,
    core: false,
  };
}

/** A click: an item deleted, a quantity changed, items cleared, or what else it did. */
function nameClick(b: Behaviour): Named {
  const removed = removedItems(b);
  const name = b.control.name;
  const noun = itemNoun(b);
  const item = b.control.item;
  if (item && removed.some((e) => e.label === item) && goneChecked(b)) {
    const verb = /remove/i.test(name) ? 'Removing' : 'Deleting';
    return { name: `${verb} an ${noun} removes it from the list${andUpdates(b, false)}`, core: true };
  }
  if (item && /increase|increment|plus|\badd one\b|^\+$|more/i.test(name))
    return {
      name: `Increasing the quantity of ${item} updates ${join(updates(b)) || 'the quantity'}`,
      core: true,
    };
  if (item && /decrease|decrement|minus|reduce|^[−-]$|less|fewer/i.test(name))
    return {
      name: `Decreasing the quantity of ${item} updates ${join(updates(b)) || 'the quantity'}`,
      core: true,
    };
  if (!item && removed.length && goneChecked(b)) {
    const kind = removedKind(b);
    const left = b.itemsBefore.length - removed.length;
    if (kind === 'completed' && left > 0)
      return { name: `${upperFirst(lowerFirst(name))} removes only completed ${noun}s`, core: true };
    return {
      name: `${quoteName(name)} removes ${removed.length === 1 ? `an ${noun}` : `${removed.length} ${noun}s`}`,
      core: true,
    };
  }
  // Deleted on its own page (a bin, then the confirmation's Delete): gone from the list after.
  const onItsPage = b.setupActions.some((a) => a.kind === 'link' && a.control.item);
  if (!item && onItsPage && goneChecked(b) && /delete|remove/i.test(name))
    return {
      name: `${/remove/i.test(name) ? 'Removing' : 'Deleting'} an ${noun} on its page removes it from the list`,
      core: true,
    };
  // Nothing changed, as it should not (Cancel in a confirmation): the name says so.
  if (b.effects.length === 0)
    return { name: `${upperFirst(b.description)} leaves the page as it was`, core: true };
  return {
    name: `${b.kind === 'hoverClick' ? 'Hovering an item and clicking' : 'Clicking'} ${quoteName(name)}${item ? ` in ${quoteName(item)}` : ''} ${summary(b)}`,
    core: false,
  };
}

/** A link: a page that follows the data, a filter, or a section opened. */
function nameLink(b: Behaviour): Named | null {
  const name = b.control.name;
  const noun = itemNoun(b);
  // A page opened before a change and again after it (a summary): it follows the data.
  if (b.signature.startsWith('revisit|'))
    return {
      name: `The ${quoteName(name)} page follows the data: opened before and after adding an ${noun}`,
      core: true,
    };
  const kind = removedKind(b);
  if (kind && goneChecked(b)) return { name: `The ${name} filter hides ${kind} ${noun}s`, core: true };
  if (addedItems(b).length && checksShown(stepsOf(b)))
    return { name: `The ${name} filter shows every ${noun} again`, core: true };
  if (has(b, 'urlChanged').length)
    return {
      name: `The ${name} link opens ${new URL(has(b, 'urlChanged')[0].to).hash || 'its section'}`,
      core: false,
    };
  return null;
}

/** A form sent: a search, sent empty, saved on an item's page, adding, an error, a coupon. */
function nameSubmit(b: Behaviour): Named {
  const added = addedItems(b);
  const name = b.control.name;
  const noun = itemNoun(b);
  const label = lowerFirst(fieldLabel(b));
  if (/search|query|find/i.test(`${label} ${name}`) && b.value) {
    const hit = added.find((e) => e.text.toLowerCase().includes(b.value?.toLowerCase() ?? ''));
    return {
      name: `Searching for ${quoteName(b.value)} ${hit ? `finds ${quoteName(hit.label)}` : summary(b)}`,
      core: true,
    };
  }
  const message = textEffects(b).find((t) => ERROR_WORDS.test(t.text));
  // The form sent empty: refused (an error says what is missing), or what it did.
  if (b.value === '')
    return {
      name: `Sending ${quoteName(name)} with the form empty ${message ? 'shows an error and saves nothing' : summary(b)}`,
      core: true,
    };
  // A form on an item's own page (reached through its link): an edit, saved.
  const opened = b.setupActions.at(-1);
  if (opened?.kind === 'link' && opened.control.item)
    return {
      name: `Saving ${quoteName(opened.control.item)} with ${quoteName(name)} on its page ${message ? 'shows an error' : 'keeps the new values'}`,
      core: true,
    };
  // A form whose one field's value shows up as a new entry is adding too.
  if (added.some((e) => b.value && e.text.includes(b.value))) return adding(b);
  if (message) return { name: `An invalid ${label} shows an error`, core: true };
  if (/coupon|promo|voucher|discount|code/i.test(label) && updates(b, false).includes('the totals'))
    return { name: `A valid ${label} updates ${join(updates(b, false))}`, core: true };
  if (added.length)
    return { name: `Submitting ${quoteName(name)} adds an ${noun}${andUpdates(b, false)}`, core: true };
  return { name: `Submitting the form with ${quoteName(name)} ${summary(b)}`, core: true };
}

/** A reload: what the page keeps, where a step checks it after the reload. */
function nameReload(b: Behaviour): Named | null {
  const noun = itemNoun(b);
  if (!checksAfterReload(stepsOf(b))) return null;
  // After something done on an item's own page (a comment, a close): that is what must be kept.
  const opened = b.setupActions.findIndex((a) => a.kind === 'link' && a.control.item);
  const last = b.setupActions.at(-1);
  if (opened >= 0 && last && opened < b.setupActions.length - 1)
    return {
      name: `${quoteName(last.control.name)} on the page of ${quoteName(b.setupActions[opened].control.item ?? '')} is kept after reloading`,
      core: true,
    };
  return { name: `${upperFirst(noun)}s and their state are kept after reloading the page`, core: true };
}

/** The main field a form behaviour filled: its label, else the submit button's name. */
function fieldLabel(b: Behaviour): string {
  const fill = b.action.find((s): s is Extract<Step, { verb: 'fill' }> => s.verb === 'fill');
  return fill?.field ?? b.control.name;
}

/** What an action did, in a few words: "shows "Saved"", "opens #/active", "updates the totals". */
function summary(b: Behaviour): string {
  const added = has(b, 'itemAdded').filter((e) => e.text !== '');
  const removed = has(b, 'itemRemoved').filter((e) => e.text !== '');
  if (added.length) return `adds ${quoteName(added[0].label)}`;
  if (removed.length && goneChecked(b)) return `removes ${quoteName(removed[0].label)}`;
  const u = updates(b);
  if (u.length) return `updates ${join(u)}`;
  const dialog = has(b, 'dialogOpened')[0];
  if (dialog) return `opens the ${quoteName(dialog.name)} dialog`;
  const shown = textEffects(b).find((t) => !t.changed);
  if (shown) return `shows ${quoteName(shown.text)}`;
  const url = has(b, 'urlChanged')[0];
  if (url) return `opens ${new URL(url.to).pathname}${new URL(url.to).hash}`;
  const state = has(b, 'stateChanged')[0];
  if (state)
    return `${state.marked ? 'marks' : 'unmarks'} ${quoteName(state.target)} ${state.state.replace(/^aria-/, '')}`;
  const changed = has(b, 'checkedChanged')[0];
  if (changed)
    return `${changed.checked ? 'checks' : 'unchecks'} ${quoteName(changed.name || changed.item || '')}`;
  return 'changes the page';
}
