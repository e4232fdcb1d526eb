import { z } from 'zod';

/**
 * The step language: one instruction per line, what the built-in generator writes, what a user types
 * into a custom case, and what the LLM engine will write. Reference: docs/STEP-LANGUAGE.md.
 * Quoted arguments take "double" or 'single' quotes; verbs are case-insensitive.
 *
 * `StepSchema` is a parsed line as data (a planner's structured output can target it); `parseStep`
 * reads a line into it and `formatStep` writes it back: `parseStep(formatStep(s))` equals `s`.
 */
export const TargetRoleSchema = z.enum([
  'button',
  'link',
  'heading',
  'textbox',
  'checkbox',
  'img',
  'row',
  'listitem',
]);
export type TargetRole = z.infer<typeof TargetRoleSchema>;
const ROLES = TargetRoleSchema.options.join('|');

/** Whole milliseconds, at most 30 s (`Wait 2 seconds`, `Wait 250 ms`). */
const WAIT_MAX_MS = 30_000;

const step = <V extends string, S extends z.ZodRawShape>(verb: V, shape: S) =>
  z.strictObject({ verb: z.literal(verb), ...shape });

/** One step of the step language as data, by its `verb`. */
export const StepSchema = z.discriminatedUnion('verb', [
  step('navigate', { url: z.string() }),
  step('back', {}),
  step('reload', {}),
  step('click', { target: z.string(), role: TargetRoleSchema.optional() }),
  step('fill', { field: z.string(), value: z.string() }),
  step('clear', { field: z.string() }),
  step('select', { option: z.string(), field: z.string() }),
  step('check', { target: z.string(), checked: z.boolean() }),
  step('press', { key: z.string().regex(/^[A-Za-z0-9+]+$/), field: z.string().optional() }),
  step('hover', { target: z.string() }),
  /** 'bottom' and 'top' scroll the page; any other text is a target to scroll to. */
  step('scroll', { target: z.string() }),
  step('wait', { ms: z.number().int().min(0).max(WAIT_MAX_MS) }),
  step('waitForText', { text: z.string() }),
  step('viewport', {
    width: z.number().int().min(0).max(99_999),
    height: z.number().int().min(0).max(99_999),
  }),
  step('screenshot', {}),
  step('verifyText', { text: z.string(), visible: z.boolean() }),
  step('verifyElement', { role: TargetRoleSchema, name: z.string(), visible: z.boolean() }),
  step('verifyUrl', { text: z.string() }),
  step('verifyTitle', { text: z.string() }),
  step('verifyValue', { field: z.string(), value: z.string() }),
  step('verifyInvalid', { field: z.string() }),
  step('verifyNoErrors', {}),
  step('verifyCount', { role: TargetRoleSchema, atLeast: z.number().int().min(0) }),
  step('verifyNoConsoleErrors', {}),
  step('verifyNoFailedRequests', {}),
  step('verifyLinksWork', {}),
  step('verifyImagesAlt', {}),
  step('verifyNoOverflow', {}),
  step('verifyAccessibility', {}),
]);
export type Step = z.infer<typeof StepSchema>;
export type StepVerb = Step['verb'];

export class StepSyntaxError extends Error {
  constructor(readonly line: string) {
    super(
      `Cannot understand the step "${line}". Steps look like: Navigate to <url> · Click "<text>" · ` +
        `Fill "<field>" with "<value>" · Press Enter · Verify text "<text>" is visible · ` +
        `Verify URL contains "<text>" (the full grammar is in docs/STEP-LANGUAGE.md)`,
    );
    this.name = 'StepSyntaxError';
  }
}

/** A quoted argument: "…" or '…', with \" or \' escapes inside. */
const Q = `(?:"((?:[^"\\\\]|\\\\.)*)"|'((?:[^'\\\\]|\\\\.)*)')`;
const unquote = (m: RegExpMatchArray, i: number) => (m[i] ?? m[i + 1] ?? '').replace(/\\(["'\\])/g, '$1');

type Rule = [RegExp, (m: RegExpMatchArray) => Step];
const r = (source: string) => new RegExp(`^${source}$`, 'i');

const RULES: Rule[] = [
  [r(`(?:navigate to|go to|open|visit)\\s+${Q}`), (m) => ({ verb: 'navigate', url: unquote(m, 1) })],
  [r('(?:navigate to|go to|open|visit)\\s+(\\S+)'), (m) => ({ verb: 'navigate', url: m[1] })],
  [r('go back'), () => ({ verb: 'back' })],
  [r('reload(?: the page)?'), () => ({ verb: 'reload' })],
  [
    r(`click (${ROLES})\\s+${Q}`),
    (m) => ({ verb: 'click', role: m[1].toLowerCase() as TargetRole, target: unquote(m, 2) }),
  ],
  [r(`(?:click|tap)(?: on)?\\s+${Q}`), (m) => ({ verb: 'click', target: unquote(m, 1) })],
  [
    r(`(?:fill|type)(?: in)?\\s+${Q}\\s+with\\s+${Q}`),
    (m) => ({ verb: 'fill', field: unquote(m, 1), value: unquote(m, 3) }),
  ],
  [r(`type\\s+${Q}\\s+into\\s+${Q}`), (m) => ({ verb: 'fill', field: unquote(m, 3), value: unquote(m, 1) })],
  [r(`clear\\s+${Q}`), (m) => ({ verb: 'clear', field: unquote(m, 1) })],
  [
    r(`select\\s+${Q}\\s+(?:from|in)\\s+${Q}`),
    (m) => ({ verb: 'select', option: unquote(m, 1), field: unquote(m, 3) }),
  ],
  [
    r(`(check|uncheck)\\s+${Q}`),
    (m) => ({ verb: 'check', target: unquote(m, 2), checked: m[1].toLowerCase() === 'check' }),
  ],
  [r(`press\\s+([A-Za-z0-9+]+)\\s+in\\s+${Q}`), (m) => ({ verb: 'press', key: m[1], field: unquote(m, 2) })],
  [r('press\\s+([A-Za-z0-9+]+)'), (m) => ({ verb: 'press', key: m[1] })],
  [r(`hover(?: over)?\\s+${Q}`), (m) => ({ verb: 'hover', target: unquote(m, 1) })],
  [r('scroll to (?:the )?(bottom|top)'), (m) => ({ verb: 'scroll', target: m[1].toLowerCase() })],
  [r(`scroll to\\s+${Q}`), (m) => ({ verb: 'scroll', target: unquote(m, 1) })],
  [
    r('wait\\s+(\\d+(?:\\.\\d+)?)\\s*(seconds?|s|milliseconds?|ms)'),
    (m) => ({
      verb: 'wait',
      ms: Math.min(WAIT_MAX_MS, Math.round(Number(m[1]) * (m[2].toLowerCase().startsWith('m') ? 1 : 1000))),
    }),
  ],
  [r(`wait for (?:text\\s+)?${Q}`), (m) => ({ verb: 'waitForText', text: unquote(m, 1) })],
  [
    r('set viewport to (\\d{2,5})\\s*[x×]\\s*(\\d{2,5})'),
    (m) => ({ verb: 'viewport', width: Number(m[1]), height: Number(m[2]) }),
  ],
  [r('take (?:a )?screenshot'), () => ({ verb: 'screenshot' })],
  [
    r(`verify (?:that )?(?:the )?text\\s+${Q}\\s+is (not )?visible`),
    (m) => ({ verb: 'verifyText', text: unquote(m, 1), visible: !m[3] }),
  ],
  [
    r(`verify (?:that )?(?:the )?page (?:contains|shows)\\s+${Q}`),
    (m) => ({ verb: 'verifyText', text: unquote(m, 1), visible: true }),
  ],
  [
    r(`verify (?:that )?(?:the )?(${ROLES})\\s+${Q}\\s+is (not )?visible`),
    (m) => ({
      verb: 'verifyElement',
      role: m[1].toLowerCase() as TargetRole,
      name: unquote(m, 2),
      visible: !m[4],
    }),
  ],
  [r(`verify (?:that )?(?:the )?url contains\\s+${Q}`), (m) => ({ verb: 'verifyUrl', text: unquote(m, 1) })],
  [
    r(`verify (?:that )?(?:the )?(?:page )?title contains\\s+${Q}`),
    (m) => ({ verb: 'verifyTitle', text: unquote(m, 1) }),
  ],
  [
    r(`verify (?:that )?(?:the )?field\\s+${Q}\\s+has value\\s+${Q}`),
    (m) => ({ verb: 'verifyValue', field: unquote(m, 1), value: unquote(m, 3) }),
  ],
  [
    r(`verify (?:that )?(?:the )?field\\s+${Q}\\s+shows a validation error`),
    (m) => ({ verb: 'verifyInvalid', field: unquote(m, 1) }),
  ],
  [r('verify (?:that )?no error message is visible'), () => ({ verb: 'verifyNoErrors' })],
  [
    r(`verify (?:that )?(?:there are )?at least (\\d+)\\s+(${ROLES})s?(?: (?:are|is) visible)?`),
    (m) => ({
      verb: 'verifyCount',
      atLeast: Number(m[1]),
      role: m[2].toLowerCase() as TargetRole,
    }),
  ],
  [r('verify (?:that )?(?:the )?page has no console errors'), () => ({ verb: 'verifyNoConsoleErrors' })],
  [r('verify (?:that )?(?:the )?page has no failed requests'), () => ({ verb: 'verifyNoFailedRequests' })],
  [r('verify (?:that )?all links (?:on the page )?work'), () => ({ verb: 'verifyLinksWork' })],
  [r('verify (?:that )?all images have alt text'), () => ({ verb: 'verifyImagesAlt' })],
  [r('verify (?:that )?(?:the page has )?no horizontal overflow'), () => ({ verb: 'verifyNoOverflow' })],
  [
    r('verify (?:that )?(?:the page has )?no (?:serious )?accessibility violations'),
    () => ({ verb: 'verifyAccessibility' }),
  ],
];

export function parseStep(line: string): Step {
  const text = line
    .trim()
    .replace(/^\d+[.)]\s*/, '')
    .replace(/\.$/, '');
  for (const [pattern, build] of RULES) {
    const m = text.match(pattern);
    if (m) return build(m);
  }
  throw new StepSyntaxError(line.trim());
}

/** Parses every line; the first line that does not parse throws, naming itself and the grammar. */
export function parseSteps(lines: string[]): Step[] {
  return lines.filter((l) => l.trim() !== '').map(parseStep);
}

/** Quotes a value for a step line. */
export function q(value: string): string {
  return `"${value.replace(/(["\\])/g, '\\$1')}"`;
}

/** A URL written bare when it reads back the same (no spaces, quotes first, or final period), else quoted. */
const url = (value: string) => (/^[^\s"']\S*$/.test(value) && !value.endsWith('.') ? value : q(value));
const visibility = (visible: boolean) => (visible ? 'is visible' : 'is not visible');
/** Two digits at least, as the grammar reads sizes. */
const size = (n: number) => String(n).padStart(2, '0');

/**
 * Writes a step as its canonical line of the step language (the forms docs/STEP-LANGUAGE.md lists
 * first): `parseStep(formatStep(step))` equals `step` for every step `StepSchema` accepts.
 */
export function formatStep(step: Step): string {
  switch (step.verb) {
    case 'navigate':
      return `Navigate to ${url(step.url)}`;
    case 'back':
      return 'Go back';
    case 'reload':
      return 'Reload the page';
    case 'click':
      return step.role ? `Click ${step.role} ${q(step.target)}` : `Click ${q(step.target)}`;
    case 'fill':
      return `Fill ${q(step.field)} with ${q(step.value)}`;
    case 'clear':
      return `Clear ${q(step.field)}`;
    case 'select':
      return `Select ${q(step.option)} from ${q(step.field)}`;
    case 'check':
      return `${step.checked ? 'Check' : 'Uncheck'} ${q(step.target)}`;
    case 'press':
      return step.field === undefined ? `Press ${step.key}` : `Press ${step.key} in ${q(step.field)}`;
    case 'hover':
      return `Hover ${q(step.target)}`;
    case 'scroll':
      return step.target === 'bottom' || step.target === 'top'
        ? `Scroll to ${step.target}`
        : `Scroll to ${q(step.target)}`;
    case 'wait':
      return step.ms % 1000 === 0 && step.ms > 0
        ? `Wait ${step.ms / 1000} second${step.ms === 1000 ? '' : 's'}`
        : `Wait ${step.ms} ms`;
    case 'waitForText':
      return `Wait for ${q(step.text)}`;
    case 'viewport':
      return `Set viewport to ${size(step.width)}x${size(step.height)}`;
    case 'screenshot':
      return 'Take screenshot';
    case 'verifyText':
      return `Verify text ${q(step.text)} ${visibility(step.visible)}`;
    case 'verifyElement':
      return `Verify ${step.role} ${q(step.name)} ${visibility(step.visible)}`;
    case 'verifyUrl':
      return `Verify URL contains ${q(step.text)}`;
    case 'verifyTitle':
      return `Verify title contains ${q(step.text)}`;
    case 'verifyValue':
      return `Verify field ${q(step.field)} has value ${q(step.value)}`;
    case 'verifyInvalid':
      return `Verify field ${q(step.field)} shows a validation error`;
    case 'verifyNoErrors':
      return 'Verify no error message is visible';
    case 'verifyCount':
      return `Verify at least ${step.atLeast} ${step.role}s are visible`;
    case 'verifyNoConsoleErrors':
      return 'Verify page has no console errors';
    case 'verifyNoFailedRequests':
      return 'Verify page has no failed requests';
    case 'verifyLinksWork':
      return 'Verify all links work';
    case 'verifyImagesAlt':
      return 'Verify all images have alt text';
    case 'verifyNoOverflow':
      return 'Verify no horizontal overflow';
    case 'verifyAccessibility':
      return 'Verify no accessibility violations';
    default: {
      const never: never = step;
      throw new Error(`Unknown step verb ${(never as Step).verb}`);
    }
  }
}
