import type { Behaviour } from '@argus/engine';
import type { Step, TestCase } from '@argus/protocol';
import { join, nameBehaviour, plainName, upperFirst } from './behaviour-names';
import { describeCheck, unkeptPromises } from './behaviour-promises';

export { nameBehaviour } from './behaviour-names';

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
  // The name promises only what a step checks (behaviour-promises.ts), whoever named it.
  const testName = unkeptPromises(named.name, steps).length === 0 ? named.name : plainName(b);
  return {
    test_name: testName,
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
