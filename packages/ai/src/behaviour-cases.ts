import type { Behaviour, BehaviourStep, Effect } from '@argus/engine';
import type { Step, TestCase } from '@argus/protocol';

/** A case as the rules build it: steps as data, written as lines of the step language at the end. */
export type BehaviourDraft = Omit<TestCase, 'id' | 'url' | 'steps'> & { url: string; steps: Step[] };

/** A behaviour named as a QA engineer would, with the words a command may use for it. */
export interface NamedBehaviour {
  behaviour: Behaviour;
  name: string;
  /** Core behaviours (adding, completing, deleting, editing, filtering, totals) are high priority. */
  core: boolean;
  /** Stemmed words it answers to in a command: its name's, its control's, its action's synonyms. */
  words: Set<string>;
}

const MONEY = /[$€£¥]\s?\d|\d[.,]\d{2}\b/;
const ERROR_WORDS =
  /\b(invalid|error|not valid|incorrect|wrong|failed|unknown|expired|required|not found|not saved|please enter|must be)\b/i;
const COMPLETED = /^(completed?|done|checked|finished)$/;

const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s[0].toLowerCase() + s.slice(1) : s);
const upperFirst = (s: string) => s[0].toUpperCase() + s.slice(1);
const quoteName = (s: string) => (s.length > 40 ? `"${s.slice(0, 37)}…"` : `"${s}"`);

/** A counter: a short text with a number and a word ("2 items left", "Cart (3 items)"). */
function isCounter(text: string): boolean {
  return (
    text.length <= 40 &&
    /(^|[^\p{L}\d])\d+([^\p{L}\d]|$)/u.test(text) &&
    /\p{L}{3,}/u.test(text) &&
    !MONEY.test(text)
  );
}

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

/** What the texts that changed add up to: "the counter", "the line total and the totals". */
function updates(b: Behaviour, withItem = true): string[] {
  const texts = textEffects(b);
  const parts: string[] = [];
  const money = texts.filter((t) => MONEY.test(t.text));
  if (withItem && money.some((t) => t.item)) parts.push('the line total');
  if (money.some((t) => !t.item)) parts.push('the totals');
  if (texts.some((t) => t.changed && isCounter(t.text)) || texts.some((t) => !t.changed && isCounter(t.text)))
    parts.push('the counter');
  return parts;
}

const join = (parts: string[]) =>
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

/** The name of a behaviour's test, from its action and effects (nothing about one app in particular). */
export function nameBehaviour(b: Behaviour): { name: string; core: boolean } {
  const added = has(b, 'itemAdded').filter((e) => e.text !== '');
  const removed = has(b, 'itemRemoved').filter((e) => e.text !== '');
  const marked = has(b, 'stateChanged').filter((e) => e.item !== null && e.role !== 'text');
  const checked = has(b, 'checkedChanged');
  const name = b.control.name;
  const noun = itemNoun(b);
  const secondAdd = b.setupActions.some((a) => a.kind === b.kind && a.control.name === b.control.name);
  const adding = () =>
    secondAdd
      ? { name: `Adding a second ${noun} keeps the first${andUpdates(b, false)}`, core: true }
      : { name: `Adding an ${noun} shows it in the list${andUpdates(b, false)}`, core: true };
  switch (b.kind) {
    case 'add':
      if (added.length) return adding();
      break;
    case 'check': {
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
    case 'hoverClick':
    case 'click': {
      const item = b.control.item;
      if (item && removed.some((e) => e.label === item)) {
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
      if (!item && removed.length && some(removed.length)) {
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
      const gone = b.assertions.some((a) => a.verb === 'verifyText' && a.visible === false);
      if (!item && onItsPage && gone && /delete|remove/i.test(name))
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
    case 'link': {
      // A page opened before a change and again after it (a summary): it follows the data.
      if (b.signature.startsWith('revisit|'))
        return {
          name: `The ${quoteName(name)} page follows the data: opened before and after adding an ${noun}`,
          core: true,
        };
      const kind = removedKind(b);
      if (kind) return { name: `The ${name} filter hides ${kind} ${noun}s`, core: true };
      if (added.length) return { name: `The ${name} filter shows every ${noun} again`, core: true };
      if (has(b, 'urlChanged').length)
        return {
          name: `The ${name} link opens ${new URL(has(b, 'urlChanged')[0].to).hash || 'its section'}`,
          core: false,
        };
      break;
    }
    case 'edit':
      if (added.length || has(b, 'textChanged').length)
        return { name: `Editing an ${noun} by double-click saves the new title`, core: true };
      return { name: `Double-clicking an ${noun} ${summary(b)}`, core: false };
    case 'quantity':
      return {
        name: `Changing the quantity${b.control.item ? ` of ${b.control.item}` : ''} updates ${join(updates(b)) || 'the page'}`,
        core: true,
      };
    case 'submit': {
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
      if (added.some((e) => b.value && e.text.includes(b.value))) return adding();
      if (message) return { name: `An invalid ${label} shows an error`, core: true };
      if (/coupon|promo|voucher|discount|code/i.test(label) && updates(b, false).includes('the totals'))
        return { name: `A valid ${label} updates ${join(updates(b, false))}`, core: true };
      if (added.length)
        return { name: `Submitting ${quoteName(name)} adds an ${noun}${andUpdates(b, false)}`, core: true };
      return { name: `Submitting the form with ${quoteName(name)} ${summary(b)}`, core: true };
    }
    case 'reload': {
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
    case 'load':
      return { name: `The page opens showing ${join(updates(b, false)) || 'its current state'}`, core: true };
    case 'select':
      return {
        name: `Choosing ${quoteName(b.value ?? '')} in ${quoteName(name)} ${summary(b)}`,
        core: false,
      };
  }
  return { name: `${upperFirst(b.description)} ${summary(b)}`, core: false };
}

const some = (n: number) => n > 0;

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
  if (removed.length) return `removes ${quoteName(removed[0].label)}`;
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

// ---- words, for command mode --------------------------------------------------------------------

const STOP = new Set(
  (
    'a an the and or but of to in on at for with by from as is are be been it its this that these those i me my we our you your ' +
    'test tests testing tested check checks checking verify verifies make sure ensure please can could should would will ' +
    'when then if after before works work working correctly properly page app site web does do did there here them they what how ' +
    'also too just some any one thing things feature features'
  ).split(' '),
);

/** A crude stem: lower case, without -ing, -ed, -es, -s, -e, -ies → -y. */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 4 && w.endsWith('es')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  // adding → add (doubled consonant before -ing)
  if (w.length > 3 && w.at(-1) === w.at(-2) && !/[aeiou]/.test(w.at(-1) ?? '')) w = w.slice(0, -1);
  return w;
}

/** The meaningful words of a text, stemmed, in order. */
export function words(text: string): string[] {
  return text
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !STOP.has(w.toLowerCase()))
    .map(stem)
    .filter((w) => w.length >= 2);
}

const SYNONYMS: Record<string, string> = {
  add: 'add create new enter type insert',
  check: 'complet done tick toggl mark finish',
  uncheck: 'uncheck reopen undo activ incomplet',
  delete: 'delet remov destroy trash discard',
  edit: 'edit renam chang updat doubl modify',
  filter: 'filter show hid view',
  quantity: 'quantity increas decreas plu minu more less chang set adjust amount',
  reload: 'reload refresh persist sav storag keep kept',
  error: 'invalid error wrong reject',
  counter: 'counter count left number',
  totals: 'total subtotal pric sum amount',
};

const syn = (key: keyof typeof SYNONYMS) => SYNONYMS[key].split(' ');

/** Names each behaviour and gathers the words it answers to. */
export function describeBehaviours(behaviours: Behaviour[]): NamedBehaviour[] {
  return behaviours.map((behaviour) => {
    const { name, core } = nameBehaviour(behaviour);
    const w = new Set([
      ...words(name),
      ...words(behaviour.control.name),
      ...words(behaviour.description),
      ...(behaviour.value ? words(behaviour.value) : []),
      // What changed, with its label: "Shipping $7.50", "Invalid coupon code".
      ...behaviour.effects.flatMap((e) =>
        e.kind === 'textChanged' || e.kind === 'textAdded'
          ? words(`${e.kind === 'textAdded' ? e.text : e.to} ${e.context ?? ''}`)
          : [],
      ),
    ]);
    const add = (key: keyof typeof SYNONYMS) => {
      for (const s of syn(key)) w.add(s);
    };
    const n = name.toLowerCase();
    if (behaviour.kind === 'add' || /^adding|adds/.test(n)) add('add');
    if (/completing|marks every/.test(n)) add('check');
    if (/reopening/.test(n)) add('uncheck');
    if (/deleting|removing|removes/.test(n)) add('delete');
    if (/editing|^saving .* on its page/.test(n)) add('edit');
    if (/filter/.test(n)) add('filter');
    if (/quantity/.test(n) || behaviour.kind === 'quantity') add('quantity');
    if (behaviour.kind === 'reload') add('reload');
    if (behaviour.kind === 'load') for (const x of ['load', 'open', 'initial', 'start']) w.add(x);
    if (/invalid|error|form empty/.test(n)) add('error');
    if (/counter/.test(n)) add('counter');
    if (/total/.test(n)) add('totals');
    if (behaviour.signature.startsWith('revisit|'))
      for (const x of ['page', 'summary', 'report', 'overview']) w.add(stem(x));
    return { behaviour, name, core, words: w };
  });
}

/** The pairs of neighbouring words of a text, stemmed. */
function bigrams(list: string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 1; i < list.length; i++) out.add(`${list[i - 1]} ${list[i]}`);
  return out;
}

/** A command's clauses: "adding a todo, completing it and the filters" → three. */
export function commandClauses(command: string): string[] {
  return command
    .split(/[,;.!?]|\band\b|\bthen\b|\balso\b|\bplus\b/i)
    .map((c) => c.trim())
    .filter((c) => words(c).length > 0);
}

/**
 * "todo", "item", "cart" alone say what the app is, and "form", "page", "button" where it is, not
 * what to test ("test the login form" is not about the search form): a hit on another word is needed.
 */
const GENERIC = new Set([
  ...['todo', 'item', 'cart', 'list', 'product', 'entry', 'task'],
  ...['form', 'page', 'field', 'button', 'link', 'site', 'test', 'check', 'verify', 'work'],
]);

/** The words of a clause that say what to test, not what the app is or where. */
export function strongWords(clause: string): string[] {
  return words(clause).filter((w) => !GENERIC.has(w));
}

/**
 * The behaviours a command asks for: each clause of the command ("adding a todo", "the filters") is
 * matched against each behaviour's words (names, controls, synonyms of its action), neighbouring
 * words counting double; per clause, the best matches are kept. Clauses nothing matched come back too,
 * and each clause with what it matched.
 */
export function matchCommand(
  command: string,
  named: NamedBehaviour[],
): {
  chosen: NamedBehaviour[];
  unmatched: string[];
  clauses: { clause: string; matched: NamedBehaviour[] }[];
} {
  const chosen = new Set<NamedBehaviour>();
  const unmatched: string[] = [];
  const clauses: { clause: string; matched: NamedBehaviour[] }[] = [];
  for (const clause of commandClauses(command)) {
    const want = words(clause);
    const pairs = bigrams(want);
    let best = 0;
    const scored = named.map((b) => {
      const hits = want.filter((w) => b.words.has(w)).length;
      const nameWords = words(b.name);
      const near = [...bigrams(nameWords)].filter((p) => pairs.has(p)).length;
      const score = hits + 2 * near;
      best = Math.max(best, score);
      return { b, score, hits };
    });
    const strong = (b: NamedBehaviour) => want.some((w) => b.words.has(w) && !GENERIC.has(w));
    const kept = scored.filter((s) => s.score > 0 && s.score >= best * 0.6 && strong(s.b));
    if (kept.length === 0) unmatched.push(clause);
    for (const s of kept) chosen.add(s.b);
    clauses.push({ clause, matched: kept.map((s) => s.b) });
  }
  return { chosen: named.filter((n) => chosen.has(n)), unmatched, clauses };
}

// ---- cases -------------------------------------------------------------------------------------

const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.hash}`;
};

/** A step in a few words, for the description and the expected result. */
function describeCheck(step: BehaviourStep): string | null {
  const s = step as { verb: string } & Record<string, unknown>;
  const where = s.region ? ` in "${s.region}"` : '';
  switch (s.verb) {
    case 'verifyText':
      return `"${s.text}" is ${s.visible ? 'shown' : 'gone'}${where}`;
    case 'verifyExactCount':
      return `exactly ${s.count} ${s.role}s are shown`;
    case 'verifyChecked':
      return `${s.target ? `"${s.target}"` : `the checkbox${where}`} is ${s.checked ? 'checked' : 'not checked'}`;
    case 'verifyState':
      return `"${s.target}" is ${s.marked ? '' : 'not '}marked ${s.state}`;
    case 'verifyUrl':
      return `the URL contains "${s.text}"`;
    case 'verifyValue':
      return `"${s.field}" holds "${s.value}"`;
    case 'verifyElement':
      return `the ${s.role} "${s.name}" is ${s.visible ? 'shown' : 'gone'}`;
    case 'verifyNoConsoleErrors':
      return 'no console errors';
    default:
      return null;
  }
}

/** One test case per behaviour: setup, action and the checks that held in every replay. */
export function behaviourCase(named: NamedBehaviour): BehaviourDraft {
  const b = named.behaviour;
  const setup = b.setupActions.map((a) => a.description);
  const checks = b.assertions.map(describeCheck).filter((c): c is string => c !== null);
  const steps = [
    { verb: 'navigate', url: b.url } as Step,
    ...(b.setup as Step[]),
    ...(b.action as Step[]),
    ...(b.assertions as Step[]),
  ];
  return {
    test_name: named.name,
    description:
      `Opens ${pathOf(b.url)}${setup.length ? `, ${setup.join(', then ')}` : ''}, then ${b.description}; ` +
      `checks what that did (found by trying it, and held in repeated runs).`,
    steps,
    category: 'Functional',
    priority: named.core ? 'high' : 'medium',
    expected_result: checks.length
      ? `${upperFirst(join(checks))}.`
      : 'The page responds as it did when explored.',
    url: b.url,
  };
}

/**
 * The behaviours' cases, one per name (the first of equal names is kept unless a later one checks
 * more), core behaviours first.
 */
export function behaviourCases(named: NamedBehaviour[]): BehaviourDraft[] {
  const byName = new Map<string, NamedBehaviour>();
  for (const n of named) {
    const seen = byName.get(n.name);
    if (!seen || n.behaviour.assertions.length > seen.behaviour.assertions.length) byName.set(n.name, n);
  }
  const kept = [...byName.values()];
  kept.sort((a, b) => Number(b.core) - Number(a.core));
  return kept.map(behaviourCase);
}
