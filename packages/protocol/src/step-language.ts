import { type Step, type StepVerb, type TargetRole, viewportProblem, WAIT_MAX_MS } from './step-schema';
import {
  IN,
  inRegion,
  Q,
  q,
  ROLES,
  r,
  region,
  StepSyntaxError,
  size,
  unquote,
  url,
  type VerbGrammar,
} from './step-syntax';
import { VERIFY_GRAMMAR } from './verify-grammar';

/**
 * The step language: one instruction per line, what the built-in generator writes, what a user types
 * into a custom case, and what the LLM engine will write. Reference: docs/STEP-LANGUAGE.md.
 * Quoted arguments take "double" or 'single' quotes; verbs are case-insensitive.
 *
 * `StepSchema` (step-schema.ts) is a parsed line as data; `parseStep` reads a line into it and
 * `formatStep` writes it back: `parseStep(formatStep(s))` equals `s`. Both read `STEP_GRAMMAR`, one
 * entry per verb, which the engine's verb table (packages/engine/src/steps/verbs.ts) names as each
 * verb's parser entry.
 */
export {
  pluralRole,
  type Step,
  type StepOf,
  StepSchema,
  type StepVerb,
  type TargetRole,
  TargetRoleSchema,
  VIEWPORT_LIMITS,
  viewportProblem,
} from './step-schema';
export { q, StepSyntaxError, type VerbGrammar } from './step-syntax';

/**
 * Every verb of the step language, one entry each, in the order lines are tried against them (a more
 * particular form before a more general one: `Type "x" into "y"` is a fill before `Type "x"`).
 */
export const STEP_GRAMMAR: { readonly [V in StepVerb]: VerbGrammar<V> } = {
  navigate: {
    forms: [
      [r(`(?:navigate to|go to|open|visit)\\s+${Q}`), (m) => ({ verb: 'navigate', url: unquote(m, 1) })],
      [r('(?:navigate to|go to|open|visit)\\s+(\\S+)'), (m) => ({ verb: 'navigate', url: m[1] })],
    ],
    format: (step) => `Navigate to ${url(step.url)}`,
  },
  back: { forms: [[r('go back'), () => ({ verb: 'back' })]], format: () => 'Go back' },
  reload: {
    forms: [[r('reload(?: the page)?'), () => ({ verb: 'reload' })]],
    format: () => 'Reload the page',
  },
  click: {
    forms: [
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
    ],
    format: (step) =>
      step.target === undefined
        ? `Click the ${step.role ?? 'button'} in ${q(step.region ?? '')}`
        : `Click ${step.role ? `${step.role} ` : ''}${q(step.target)}${inRegion(step.region)}`,
  },
  doubleClick: {
    forms: [
      [
        r(`double[- ]?click(?: on)?\\s+${Q}${IN}`),
        (m) => ({ verb: 'doubleClick', target: unquote(m, 1), ...region(m, 3) }),
      ],
    ],
    format: (step) => `Double-click ${q(step.target)}${inRegion(step.region)}`,
  },
  fillFocused: {
    forms: [
      [r(`fill the focused field with\\s+${Q}`), (m) => ({ verb: 'fillFocused', value: unquote(m, 1) })],
    ],
    format: (step) => `Fill the focused field with ${q(step.value)}`,
  },
  fill: {
    forms: [
      [
        r(`(?:fill|type)(?: in)?\\s+${Q}\\s+with\\s+${Q}`),
        (m) => ({ verb: 'fill', field: unquote(m, 1), value: unquote(m, 3) }),
      ],
      [
        r(`type\\s+${Q}\\s+into\\s+${Q}`),
        (m) => ({ verb: 'fill', field: unquote(m, 3), value: unquote(m, 1) }),
      ],
    ],
    format: (step) => `Fill ${q(step.field)} with ${q(step.value)}`,
  },
  type: {
    forms: [[r(`type\\s+${Q}`), (m) => ({ verb: 'type', value: unquote(m, 1) })]],
    format: (step) => `Type ${q(step.value)}`,
  },
  clear: {
    forms: [[r(`clear\\s+${Q}`), (m) => ({ verb: 'clear', field: unquote(m, 1) })]],
    format: (step) => `Clear ${q(step.field)}`,
  },
  select: {
    forms: [
      [
        r(`select\\s+${Q}\\s+(?:from|in)\\s+${Q}`),
        (m) => ({ verb: 'select', option: unquote(m, 1), field: unquote(m, 3) }),
      ],
    ],
    format: (step) => `Select ${q(step.option)} from ${q(step.field)}`,
  },
  check: {
    forms: [
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
    ],
    format: (step) =>
      step.target === undefined
        ? `${step.checked ? 'Check' : 'Uncheck'} the checkbox in ${q(step.region ?? '')}`
        : `${step.checked ? 'Check' : 'Uncheck'} ${q(step.target)}${inRegion(step.region)}`,
  },
  press: {
    forms: [
      [
        r(`press\\s+([A-Za-z0-9+]+)\\s+in\\s+${Q}`),
        (m) => ({ verb: 'press', key: m[1], field: unquote(m, 2) }),
      ],
      [r('press\\s+([A-Za-z0-9+]+)'), (m) => ({ verb: 'press', key: m[1] })],
    ],
    format: (step) =>
      step.field === undefined ? `Press ${step.key}` : `Press ${step.key} in ${q(step.field)}`,
  },
  hover: {
    forms: [
      [r(`hover(?: over)?\\s+${Q}${IN}`), (m) => ({ verb: 'hover', target: unquote(m, 1), ...region(m, 3) })],
    ],
    format: (step) => `Hover ${q(step.target)}${inRegion(step.region)}`,
  },
  scroll: {
    forms: [
      [r('scroll to (?:the )?(bottom|top)'), (m) => ({ verb: 'scroll', target: m[1].toLowerCase() })],
      [r(`scroll to\\s+${Q}`), (m) => ({ verb: 'scroll', target: unquote(m, 1) })],
    ],
    format: (step) =>
      step.target === 'bottom' || step.target === 'top'
        ? `Scroll to ${step.target}`
        : `Scroll to ${q(step.target)}`,
  },
  wait: {
    forms: [
      [
        r('wait\\s+(\\d+(?:\\.\\d+)?)\\s*(seconds?|s|milliseconds?|ms)'),
        (m) => ({
          verb: 'wait',
          ms: Math.min(
            WAIT_MAX_MS,
            Math.round(Number(m[1]) * (m[2].toLowerCase().startsWith('m') ? 1 : 1000)),
          ),
        }),
      ],
    ],
    format: (step) =>
      step.ms % 1000 === 0 && step.ms > 0
        ? `Wait ${step.ms / 1000} second${step.ms === 1000 ? '' : 's'}`
        : `Wait ${step.ms} ms`,
  },
  waitForText: {
    forms: [[r(`wait for (?:text\\s+)?${Q}`), (m) => ({ verb: 'waitForText', text: unquote(m, 1) })]],
    format: (step) => `Wait for ${q(step.text)}`,
  },
  viewport: {
    forms: [
      [
        r('set viewport to (\\d{2,5})\\s*[x×]\\s*(\\d{2,5})'),
        (m) => {
          const [width, height] = [Number(m[1]), Number(m[2])];
          const problem = viewportProblem(width, height);
          if (problem) throw new StepSyntaxError(m[0], problem);
          return { verb: 'viewport', width, height };
        },
      ],
    ],
    format: (step) => `Set viewport to ${size(step.width)}x${size(step.height)}`,
  },
  screenshot: {
    forms: [[r('take (?:a )?screenshot'), () => ({ verb: 'screenshot' })]],
    format: () => 'Take screenshot',
  },
  ...VERIFY_GRAMMAR,
};

/** Every form of every verb, in the order a line is tried against them. */
const FORMS = Object.values(STEP_GRAMMAR).flatMap(
  (grammar) => grammar.forms as VerbGrammar<StepVerb>['forms'],
);

export function parseStep(line: string): Step {
  const text = line
    .trim()
    .replace(/^\d+[.)]\s*/, '')
    .replace(/\.$/, '');
  for (const [pattern, build] of FORMS) {
    const m = text.match(pattern);
    if (m) return build(m);
  }
  throw new StepSyntaxError(line.trim());
}

/** Parses every line; the first line that does not parse throws, naming itself and the grammar. */
export function parseSteps(lines: string[]): Step[] {
  return lines.filter((l) => l.trim() !== '').map(parseStep);
}

/**
 * Writes a step as its canonical line of the step language (the forms docs/STEP-LANGUAGE.md lists
 * first): `parseStep(formatStep(step))` equals `step` for every step `StepSchema` accepts.
 */
export function formatStep(step: Step): string {
  const grammar = STEP_GRAMMAR[step.verb] as VerbGrammar<StepVerb> | undefined;
  if (!grammar) throw new Error(`Unknown step verb ${step.verb}`);
  return grammar.format(step);
}
