import type { Step } from '@argus/protocol';

// What a behaviour case's name may promise, and the steps that keep each promise. The namer
// (behaviour-names.ts) says an effect only where a step of the case checks it, and the case builder
// (behaviour-cases.ts) holds every name to this table: a case called "… updates the counter" checks a
// counter, whatever the exploration saw change.

export const MONEY = /[$€£¥]\s?\d|\d[.,]\d{2}\b/;

/** A counter: a short text with a number and a word ("2 items left", "Cart (3 items)"). */
export function isCounter(text: string): boolean {
  return (
    text.length <= 40 &&
    /(^|[^\p{L}\d])\d+([^\p{L}\d]|$)/u.test(text) &&
    /\p{L}{3,}/u.test(text) &&
    !MONEY.test(text)
  );
}

type Shown = Extract<Step, { verb: 'verifyText' }>;
const shownTexts = (steps: Step[], visible: boolean): Shown[] =>
  steps.filter((s): s is Shown => s.verb === 'verifyText' && s.visible === visible);

/** A counter is checked: its text shown, or that it counts the rows it names. */
export const checksCounter = (steps: Step[]) =>
  steps.some((s) => s.verb === 'verifyCountOf') || shownTexts(steps, true).some((s) => isCounter(s.text));

/** An item's own amount is checked: a sum of money shown in an item. */
export const checksLineTotal = (steps: Step[]) =>
  shownTexts(steps, true).some((s) => s.region !== undefined && MONEY.test(s.text));

/** A total is checked: a sum of money shown outside any item, or that rows add up to it. */
export const checksTotals = (steps: Step[]) =>
  steps.some((s) => s.verb === 'verifySum') ||
  shownTexts(steps, true).some((s) => s.region === undefined && MONEY.test(s.text));

/**
 * Something is checked gone: an item's text (not a counter's or an amount's old value), an element,
 * or the exact number of rows left.
 */
export const checksGone = (steps: Step[]) =>
  steps.some((s) => s.verb === 'verifyExactCount' || (s.verb === 'verifyElement' && !s.visible)) ||
  shownTexts(steps, false).some((s) => !isCounter(s.text) && !MONEY.test(s.text));

/** Something is checked shown: a text, or an element. */
export const checksShown = (steps: Step[]) =>
  shownTexts(steps, true).length > 0 || steps.some((s) => s.verb === 'verifyElement' && s.visible);

/** What the page keeps is checked after a reload: a check of the page's state after a reload step. */
export function checksAfterReload(steps: Step[]): boolean {
  const reload = steps.findIndex((s) => s.verb === 'reload');
  return (
    reload >= 0 &&
    steps
      .slice(reload + 1)
      .some(
        (s) => s.verb.startsWith('verify') && s.verb !== 'verifyNoConsoleErrors' && s.verb !== 'verifyUrl',
      )
  );
}

/**
 * The effects a name can promise, in the namer's own words (its quoted names set aside), each with
 * the steps that keep the promise.
 */
export const PROMISES: { effect: string; promised: RegExp; kept: (steps: Step[]) => boolean }[] = [
  { effect: 'the counter', promised: /\bthe counter\b/, kept: checksCounter },
  { effect: 'the line total', promised: /\bthe line total\b/, kept: checksLineTotal },
  { effect: 'the totals', promised: /\bthe totals\b/, kept: checksTotals },
  { effect: 'removal', promised: /\bremoves\b/, kept: checksGone },
  { effect: 'a filter hiding items', promised: /\bfilter hides\b/, kept: checksGone },
  { effect: 'a filter showing items', promised: /\bfilter shows\b/, kept: checksShown },
  { effect: 'persistence after a reload', promised: /\bkept after reloading\b/, kept: checksAfterReload },
];

/** The effects `name` promises that none of `steps` checks. */
export function unkeptPromises(name: string, steps: Step[]): string[] {
  const own = name.replace(/"[^"]*"/g, '""');
  return PROMISES.filter((p) => p.promised.test(own) && !p.kept(steps)).map((p) => p.effect);
}

/** A step in a few words, for a case's description and expected result. */
export function describeCheck(step: Step): string | null {
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
    case 'verifySum':
      return `${(s.parts as string[]).map((p) => `"${p}"`).join(' and ')} add up to "${s.total}"`;
    case 'verifyCountOf':
      return `"${s.text}" counts the rows showing "${s.cell}"`;
    case 'verifyNoConsoleErrors':
      return 'no console errors';
    default:
      return null;
  }
}
