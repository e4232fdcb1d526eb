import { parseStep, type Step, type TestCase } from '@argus/protocol';

/**
 * What a case tests, with its words left out where they are only words: the actions it takes (their
 * verbs and the kinds of their targets), the effects its checks verify (a text appears or goes, a count,
 * a URL, a checked state…), and the page it starts on. Two cases with the same signature test the same
 * behaviour even when a redesign renamed every button; the names are kept apart (`names`), a weaker hint
 * that tells two like behaviours on the same page apart (deleting a note from archiving it).
 */
export interface BehaviourSignature {
  /** The path of the page the case starts on ('/', '/notes'). */
  start: string;
  /** One token per action: `click:button`, `fill`, `press:enter`, `check:on`. */
  actions: string[];
  /** One token per check: `text:shown`, `text:gone`, `count:listitem`, `url`, `checked:on`. */
  effects: string[];
  /** The words of the targets, fields and checked texts that are not test data, lower-cased. */
  names: Set<string>;
}

/** The values a case types (test data), longest first: what its checks may repeat. */
export function typedValues(steps: Step[]): string[] {
  const values = new Set<string>();
  for (const step of steps) {
    if ((step.verb === 'fill' || step.verb === 'type' || step.verb === 'fillFocused') && step.value.trim())
      values.add(step.value.trim());
  }
  return [...values].sort((a, b) => b.length - a.length);
}

/** A line's steps, or null for a line that is not in the step language (a free-form step). */
function parsed(line: string): Step | null {
  try {
    return parseStep(line);
  } catch {
    return null;
  }
}

/** Whether `text` is (or holds) one of the typed values: a check of test data, not of the app's words. */
function isData(text: string, typed: string[]): boolean {
  const plain = text.replace(/\{\{\s*[A-Z0-9_]+\s*\}\}/g, '').trim();
  return typed.some((value) => {
    const bare = value.replace(/\{\{\s*[A-Z0-9_]+\s*\}\}/g, '').trim();
    return bare !== '' && plain.includes(bare);
  });
}

const ACTION_OF: Partial<Record<Step['verb'], (step: never) => string>> = {
  navigate: () => 'navigate',
  back: () => 'back',
  reload: () => 'reload',
  click: (step: Extract<Step, { verb: 'click' }>) => `click:${step.role ?? 'any'}`,
  doubleClick: () => 'doubleclick',
  fill: () => 'fill',
  type: () => 'fill',
  fillFocused: () => 'fill',
  clear: () => 'clear',
  select: () => 'select',
  check: (step: Extract<Step, { verb: 'check' }>) => `check:${step.checked ? 'on' : 'off'}`,
  press: (step: Extract<Step, { verb: 'press' }>) => `press:${step.key.toLowerCase()}`,
  hover: () => 'hover',
};

/** The kind of effect a check verifies; null for a step that is not a check. */
function effectOf(step: Step, typed: string[]): string | null {
  const shown = (visible: boolean) => (visible ? 'shown' : 'gone');
  switch (step.verb) {
    case 'verifyText':
      return `text${isData(step.text, typed) ? '-data' : ''}:${shown(step.visible)}`;
    case 'waitForText':
      return `text${isData(step.text, typed) ? '-data' : ''}:shown`;
    case 'verifyElement':
      return `${step.role}:${shown(step.visible)}`;
    case 'verifyCount':
    case 'verifyExactCount':
      return `count:${step.role}`;
    case 'verifyCountOf':
    case 'verifySum':
      return 'count';
    case 'verifyUrl':
      return 'url';
    case 'verifyTitle':
      return 'title';
    case 'verifyValue':
      return 'value';
    case 'verifyInvalid':
      return 'invalid';
    case 'verifyChecked':
      return `checked:${step.checked ? 'on' : 'off'}`;
    case 'verifyState':
      return `state:${step.marked ? 'on' : 'off'}`;
    default:
      // The page-health checks (no errors, links work, images have alt text, no overflow…) by verb.
      return step.verb.startsWith('verify') ? step.verb.toLowerCase() : null;
  }
}

/** The app's words a step names (its targets, fields, regions and checked texts), test data left out. */
function namesOf(step: Step, typed: string[]): string[] {
  const texts: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === 'string' && !isData(value, typed)) texts.push(value);
  };
  const fields = step as Record<string, unknown>;
  for (const key of ['target', 'field', 'region', 'name', 'option']) add(fields[key]);
  if (step.verb === 'verifyText' || step.verb === 'verifyTitle' || step.verb === 'waitForText')
    add(step.text);
  return texts.flatMap(words);
}

/** Lower-cased words of a text, numbers and `{{VARIABLES}}` left out. */
export function words(text: string): string[] {
  return text
    .replace(/\{\{\s*[A-Z0-9_]+\s*\}\}/g, ' ')
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((word) => word.length > 1);
}

/** The path a case starts on: its first navigation's, else its own URL's, else the run's start ('/'). */
export function startPath(testCase: Pick<TestCase, 'steps' | 'url'>, steps: (Step | null)[]): string {
  const first = steps.find((step) => step !== null && step.verb !== 'viewport');
  const url = first?.verb === 'navigate' ? first.url : testCase.url || '/';
  try {
    const path = new URL(url, 'http://relative.invalid/').pathname.replace(/\/+$/, '');
    return path === '' ? '/' : path;
  } catch {
    return '/';
  }
}

/** The behaviour signature of one case (free-form lines count as actions, by their words). */
export function signatureOf(testCase: Pick<TestCase, 'steps' | 'url'>): BehaviourSignature {
  const steps = testCase.steps.map(parsed);
  const typed = typedValues(steps.filter((step): step is Step => step !== null));
  const actions: string[] = [];
  const effects: string[] = [];
  const names = new Set<string>();
  steps.forEach((step, index) => {
    if (step === null) {
      actions.push('free');
      for (const word of words(testCase.steps[index])) names.add(word);
      return;
    }
    const action = ACTION_OF[step.verb];
    // The first navigation is the start page, not an action of the behaviour.
    if (action && !(step.verb === 'navigate' && index === steps.findIndex((s) => s !== null))) {
      actions.push((action as (step: Step) => string)(step));
    }
    const effect = effectOf(step, typed);
    if (effect) effects.push(effect);
    for (const word of namesOf(step, typed)) names.add(word);
  });
  return { start: startPath(testCase, steps), actions, effects, names };
}

/**
 * A case's steps with its test data replaced by placeholders (`<value 1>`, in the order typed) and
 * spaces folded: two generations that typed other notes compare as the same steps.
 */
export function normalisedSteps(steps: string[]): string[] {
  const typed = typedValues(steps.map(parsed).filter((step): step is Step => step !== null));
  const order = new Map<string, number>();
  return steps.map((line) => {
    let text = line.trim().replace(/\s+/g, ' ');
    for (const value of typed) {
      if (!text.includes(value)) continue;
      if (!order.has(value)) order.set(value, order.size + 1);
      text = text.split(value).join(`<value ${order.get(value)}>`);
    }
    return text.replace(/\{\{\s*RUN_ID\s*\}\}/g, '{{RUN_ID}}');
  });
}
