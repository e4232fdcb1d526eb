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
  'radio',
  'combobox',
  'option',
  'list',
  'tab',
  'menuitem',
  'dialog',
  'alert',
  'status',
  'cell',
]);
export type TargetRole = z.infer<typeof TargetRoleSchema>;
/** Longest names first, so `listitem` is not read as `list`. */
const ROLES = [...TargetRoleSchema.options].sort((a, b) => b.length - a.length).join('|');
/** A role, singular or plural (`rows`, `checkboxes`, `listitems`): group 1 is the role. */
const ROLE_PLURAL = `(${ROLES})(?:es|s)?`;
/** The plural a role is written with: `checkboxes`, `rows`. */
export const pluralRole = (role: TargetRole) => (role.endsWith('x') ? `${role}es` : `${role}s`);

/**
 * What `Set viewport to <w>x<h>` (and every viewport the engine opens) may be, in CSS pixels each way:
 * one browser serves every user, and a 99999x99999 page would take its memory from all of them.
 * The design comparison's viewports (`ViewportSchema`) share these limits.
 */
export const VIEWPORT_LIMITS = { min: 200, max: 7680 } as const;

/** The refusal of a viewport outside {@link VIEWPORT_LIMITS}, naming the limit. */
export function viewportProblem(width: number, height: number): string | null {
  const { min, max } = VIEWPORT_LIMITS;
  const fits = (n: number) => Number.isInteger(n) && n >= min && n <= max;
  return fits(width) && fits(height)
    ? null
    : `A viewport can be ${min} to ${max} pixels wide and high; ${width}x${height} is outside that`;
}

const viewportSide = z
  .number()
  .int()
  .min(VIEWPORT_LIMITS.min, `A viewport is at least ${VIEWPORT_LIMITS.min} pixels wide and high`)
  .max(VIEWPORT_LIMITS.max, `A viewport is at most ${VIEWPORT_LIMITS.max} pixels wide and high`);

/** Whole milliseconds, at most 30 s (`Wait 2 seconds`, `Wait 250 ms`). */
const WAIT_MAX_MS = 30_000;

const step = <V extends string, S extends z.ZodRawShape>(verb: V, shape: S) =>
  z.strictObject({ verb: z.literal(verb), ...shape });

/** One step of the step language as data, by its `verb`. */
export const StepSchema = z.discriminatedUnion('verb', [
  step('navigate', { url: z.string() }),
  step('back', {}),
  step('reload', {}),
  /**
   * Without a target, the (first) control of `role` in the region: for an icon-only button with no
   * name of its own (a bin in a row). One of `target` and `role` + `region` is required.
   */
  step('click', {
    target: z.string().optional(),
    role: TargetRoleSchema.optional(),
    region: z.string().optional(),
  }).refine(
    (s) => s.target !== undefined || (s.role !== undefined && s.region !== undefined),
    'A click step names its target, or a role and a region',
  ),
  step('doubleClick', { target: z.string(), region: z.string().optional() }),
  step('fill', { field: z.string(), value: z.string() }),
  step('clear', { field: z.string() }),
  step('select', { option: z.string(), field: z.string() }),
  /** Without a target, the (first) checkbox in the region: one of `target` and `region` is required. */
  step('check', {
    target: z.string().optional(),
    checked: z.boolean(),
    region: z.string().optional(),
  }).refine(
    (s) => s.target !== undefined || s.region !== undefined,
    'A check step names its target, its region, or both',
  ),
  step('press', { key: z.string().regex(/^[A-Za-z0-9+]+$/), field: z.string().optional() }),
  step('hover', { target: z.string(), region: z.string().optional() }),
  /** Types into the element that has focus. */
  step('type', { value: z.string() }),
  /** Replaces the value of the field that has focus. */
  step('fillFocused', { value: z.string() }),
  /** 'bottom' and 'top' scroll the page; any other text is a target to scroll to. */
  step('scroll', { target: z.string() }),
  step('wait', { ms: z.number().int().min(0).max(WAIT_MAX_MS) }),
  step('waitForText', { text: z.string() }),
  step('viewport', { width: viewportSide, height: viewportSide }),
  step('screenshot', {}),
  step('verifyText', { text: z.string(), visible: z.boolean(), region: z.string().optional() }),
  step('verifyElement', {
    role: TargetRoleSchema,
    name: z.string(),
    visible: z.boolean(),
    region: z.string().optional(),
  }),
  /**
   * The numbers of the `parts` rows (a table's rows, each found by its first cell) add up to the
   * number of the `total` row: a summary that holds whatever the data.
   */
  step('verifySum', { parts: z.array(z.string()).min(2).max(20), total: z.string() }),
  /**
   * The number shown with `text` ("2 open tickets": `open tickets`, singular or plural) equals how many
   * rows have a cell that reads `cell` ("Open"): a counter that holds whatever the data.
   */
  step('verifyCountOf', { text: z.string(), cell: z.string() }),
  step('verifyUrl', { text: z.string() }),
  step('verifyTitle', { text: z.string() }),
  step('verifyValue', { field: z.string(), value: z.string() }),
  step('verifyInvalid', { field: z.string() }),
  step('verifyNoErrors', {}),
  step('verifyCount', { role: TargetRoleSchema, atLeast: z.number().int().min(0) }),
  step('verifyExactCount', {
    role: TargetRoleSchema,
    count: z.number().int().min(0),
    region: z.string().optional(),
  }),
  /** Without a target, the (first) checkbox in the region: one of `target` and `region` is required. */
  step('verifyChecked', {
    target: z.string().optional(),
    region: z.string().optional(),
    checked: z.boolean(),
  }).refine(
    (s) => s.target !== undefined || s.region !== undefined,
    'A verifyChecked step names its target, its region, or both',
  ),
  /** A class, `aria-*` or `data-state` mark on the target or its item (docs/STEP-LANGUAGE.md). */
  step('verifyState', {
    target: z.string(),
    role: TargetRoleSchema.optional(),
    state: z.string(),
    marked: z.boolean(),
    region: z.string().optional(),
  }),
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
  /** `problem`: what is wrong with a line the grammar reads but a limit refuses; else the grammar's help. */
  constructor(
    readonly line: string,
    problem?: string,
  ) {
    super(
      problem
        ? `Cannot use the step "${line}": ${problem}`
        : `Cannot understand the step "${line}". Steps look like: Navigate to <url> · Click "<text>" · ` +
            `Fill "<field>" with "<value>" · Press Enter · Verify text "<text>" is visible · ` +
            `Verify URL contains "<text>" (the full grammar is in docs/STEP-LANGUAGE.md)`,
    );
    this.name = 'StepSyntaxError';
  }
}

/** A quoted argument: "…" or '…', with \" or \' escapes inside. */
const Q = `(?:"((?:[^"\\\\]|\\\\.)*)"|'((?:[^'\\\\]|\\\\.)*)')`;
const unquote = (m: RegExpMatchArray, i: number) => (m[i] ?? m[i + 1] ?? '').replace(/\\(["'\\])/g, '$1');
/** An optional region suffix ` in "<region>"` (two groups). */
const IN = `(?:\\s+in\\s+${Q})?`;
/** `{ region }` when the optional quoted argument at group `i` is there, else nothing. */
const region = (m: RegExpMatchArray, i: number): { region?: string } =>
  m[i] === undefined && m[i + 1] === undefined ? {} : { region: unquote(m, i) };

type Rule = [RegExp, (m: RegExpMatchArray) => Step];
const r = (source: string) => new RegExp(`^${source}$`, 'i');

const RULES: Rule[] = [
  [r(`(?:navigate to|go to|open|visit)\\s+${Q}`), (m) => ({ verb: 'navigate', url: unquote(m, 1) })],
  [r('(?:navigate to|go to|open|visit)\\s+(\\S+)'), (m) => ({ verb: 'navigate', url: m[1] })],
  [r('go back'), () => ({ verb: 'back' })],
  [r('reload(?: the page)?'), () => ({ verb: 'reload' })],
  [
    r(`click the (${ROLES})\\s+in\\s+${Q}`),
    (m) => ({ verb: 'click', role: m[1].toLowerCase() as TargetRole, region: unquote(m, 2) }),
  ],
  [
    r(`click (${ROLES})\\s+${Q}${IN}`),
    (m) => ({
      verb: 'click',
      role: m[1].toLowerCase() as TargetRole,
      target: unquote(m, 2),
      ...region(m, 4),
    }),
  ],
  [
    r(`(?:click|tap)(?: on)?\\s+${Q}${IN}`),
    (m) => ({ verb: 'click', target: unquote(m, 1), ...region(m, 3) }),
  ],
  [
    r(`double[- ]?click(?: on)?\\s+${Q}${IN}`),
    (m) => ({ verb: 'doubleClick', target: unquote(m, 1), ...region(m, 3) }),
  ],
  [r(`fill the focused field with\\s+${Q}`), (m) => ({ verb: 'fillFocused', value: unquote(m, 1) })],
  [
    r(`(?:fill|type)(?: in)?\\s+${Q}\\s+with\\s+${Q}`),
    (m) => ({ verb: 'fill', field: unquote(m, 1), value: unquote(m, 3) }),
  ],
  [r(`type\\s+${Q}\\s+into\\s+${Q}`), (m) => ({ verb: 'fill', field: unquote(m, 3), value: unquote(m, 1) })],
  [r(`type\\s+${Q}`), (m) => ({ verb: 'type', value: unquote(m, 1) })],
  [r(`clear\\s+${Q}`), (m) => ({ verb: 'clear', field: unquote(m, 1) })],
  [
    r(`select\\s+${Q}\\s+(?:from|in)\\s+${Q}`),
    (m) => ({ verb: 'select', option: unquote(m, 1), field: unquote(m, 3) }),
  ],
  [
    r(`(check|uncheck)\\s+${Q}${IN}`),
    (m) => ({
      verb: 'check',
      target: unquote(m, 2),
      checked: m[1].toLowerCase() === 'check',
      ...region(m, 4),
    }),
  ],
  [
    r(`(check|uncheck) the checkbox\\s+in\\s+${Q}`),
    (m) => ({ verb: 'check', checked: m[1].toLowerCase() === 'check', region: unquote(m, 2) }),
  ],
  [r(`press\\s+([A-Za-z0-9+]+)\\s+in\\s+${Q}`), (m) => ({ verb: 'press', key: m[1], field: unquote(m, 2) })],
  [r('press\\s+([A-Za-z0-9+]+)'), (m) => ({ verb: 'press', key: m[1] })],
  [r(`hover(?: over)?\\s+${Q}${IN}`), (m) => ({ verb: 'hover', target: unquote(m, 1), ...region(m, 3) })],
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
    (m) => {
      const [width, height] = [Number(m[1]), Number(m[2])];
      const problem = viewportProblem(width, height);
      if (problem) throw new StepSyntaxError(m[0], problem);
      return { verb: 'viewport', width, height };
    },
  ],
  [r('take (?:a )?screenshot'), () => ({ verb: 'screenshot' })],
  [
    r(`verify (?:that )?(?:the )?text\\s+${Q}\\s+is (not )?visible${IN}`),
    (m) => ({ verb: 'verifyText', text: unquote(m, 1), visible: !m[3], ...region(m, 4) }),
  ],
  [
    r(`verify (?:that )?(?:the )?page (?:contains|shows)\\s+${Q}`),
    (m) => ({ verb: 'verifyText', text: unquote(m, 1), visible: true }),
  ],
  [
    r(`verify (?:that )?(?:the )?(${ROLES})\\s+${Q}\\s+is (not )?visible${IN}`),
    (m) => ({
      verb: 'verifyElement',
      role: m[1].toLowerCase() as TargetRole,
      name: unquote(m, 2),
      visible: !m[4],
      ...region(m, 5),
    }),
  ],
  [
    r(`verify (?:that )?${Q}${IN}\\s+is (not )?checked${IN}`),
    (m) => {
      const where = region(m, 3).region === undefined ? region(m, 6) : region(m, 3);
      return { verb: 'verifyChecked', target: unquote(m, 1), ...where, checked: !m[5] };
    },
  ],
  [
    r(`verify (?:that )?the checkbox\\s+in\\s+${Q}\\s+is (not )?checked`),
    (m) => ({ verb: 'verifyChecked', region: unquote(m, 1), checked: !m[3] }),
  ],
  [
    r(`verify (?:that )?the checkbox\\s+is (not )?checked\\s+in\\s+${Q}`),
    (m) => ({ verb: 'verifyChecked', region: unquote(m, 2), checked: !m[1] }),
  ],
  [
    r(`verify (?:that )?(?:(?:the )?(${ROLES})\\s+)?${Q}${IN}\\s+is (not )?marked\\s+${Q}${IN}`),
    (m) => {
      const where = region(m, 4).region === undefined ? region(m, 9) : region(m, 4);
      return {
        verb: 'verifyState',
        target: unquote(m, 2),
        ...(m[1] ? { role: m[1].toLowerCase() as TargetRole } : {}),
        state: unquote(m, 7),
        marked: !m[6],
        ...where,
      };
    },
  ],
  [
    r(`verify (?:that )?(?:the rows )?(${Q}(?:\\s*\\+\\s*${Q})+)\\s+add up to\\s+${Q}`),
    (m) => ({
      verb: 'verifySum',
      parts: [...m[1].matchAll(new RegExp(Q, 'g'))].map((p) => unquote(p, 1)),
      total: unquote(m, m.length - 2),
    }),
  ],
  [
    r(`verify (?:that )?the number in\\s+${Q}\\s+counts the rows showing\\s+${Q}`),
    (m) => ({ verb: 'verifyCountOf', text: unquote(m, 1), cell: unquote(m, 3) }),
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
    r(`verify (?:that )?(?:there (?:are|is) )?exactly (\\d+)\\s+${ROLE_PLURAL}(?: (?:are|is) visible)?${IN}`),
    (m) => ({
      verb: 'verifyExactCount',
      role: m[2].toLowerCase() as TargetRole,
      count: Number(m[1]),
      ...region(m, 3),
    }),
  ],
  [
    r(`verify (?:that )?(?:there are )?at least (\\d+)\\s+${ROLE_PLURAL}(?: (?:are|is) visible)?`),
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
const inRegion = (region: string | undefined) => (region === undefined ? '' : ` in ${q(region)}`);
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
      if (step.target === undefined) return `Click the ${step.role ?? 'button'} in ${q(step.region ?? '')}`;
      return `Click ${step.role ? `${step.role} ` : ''}${q(step.target)}${inRegion(step.region)}`;
    case 'doubleClick':
      return `Double-click ${q(step.target)}${inRegion(step.region)}`;
    case 'fill':
      return `Fill ${q(step.field)} with ${q(step.value)}`;
    case 'clear':
      return `Clear ${q(step.field)}`;
    case 'select':
      return `Select ${q(step.option)} from ${q(step.field)}`;
    case 'check':
      return step.target === undefined
        ? `${step.checked ? 'Check' : 'Uncheck'} the checkbox in ${q(step.region ?? '')}`
        : `${step.checked ? 'Check' : 'Uncheck'} ${q(step.target)}${inRegion(step.region)}`;
    case 'press':
      return step.field === undefined ? `Press ${step.key}` : `Press ${step.key} in ${q(step.field)}`;
    case 'hover':
      return `Hover ${q(step.target)}${inRegion(step.region)}`;
    case 'type':
      return `Type ${q(step.value)}`;
    case 'fillFocused':
      return `Fill the focused field with ${q(step.value)}`;
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
      return `Verify text ${q(step.text)} ${visibility(step.visible)}${inRegion(step.region)}`;
    case 'verifyElement':
      return `Verify ${step.role} ${q(step.name)} ${visibility(step.visible)}${inRegion(step.region)}`;
    case 'verifySum':
      return `Verify the rows ${step.parts.map(q).join(' + ')} add up to ${q(step.total)}`;
    case 'verifyCountOf':
      return `Verify the number in ${q(step.text)} counts the rows showing ${q(step.cell)}`;
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
      return `Verify at least ${step.atLeast} ${pluralRole(step.role)} are visible`;
    case 'verifyExactCount':
      return step.count === 1
        ? `Verify exactly 1 ${step.role} is visible${inRegion(step.region)}`
        : `Verify exactly ${step.count} ${pluralRole(step.role)} are visible${inRegion(step.region)}`;
    case 'verifyChecked': {
      const is = step.checked ? 'is checked' : 'is not checked';
      return step.target === undefined
        ? `Verify the checkbox in ${q(step.region ?? '')} ${is}`
        : `Verify ${q(step.target)} ${is}${inRegion(step.region)}`;
    }
    case 'verifyState':
      return `Verify ${step.role ? `${step.role} ` : ''}${q(step.target)} ${step.marked ? 'is' : 'is not'} marked ${q(step.state)}${inRegion(step.region)}`;
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
