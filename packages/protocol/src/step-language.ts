/**
 * The step language: one instruction per line, what the built-in generator writes, what a user types
 * into a custom case, and what the LLM engine will write. Reference: docs/STEP-LANGUAGE.md.
 * Quoted arguments take "double" or 'single' quotes; verbs are case-insensitive.
 */
export type Step =
  | { verb: 'navigate'; url: string }
  | { verb: 'back' }
  | { verb: 'reload' }
  | { verb: 'click'; target: string; role?: TargetRole }
  | { verb: 'fill'; field: string; value: string }
  | { verb: 'clear'; field: string }
  | { verb: 'select'; option: string; field: string }
  | { verb: 'check'; target: string; checked: boolean }
  | { verb: 'press'; key: string; field?: string }
  | { verb: 'hover'; target: string }
  | { verb: 'scroll'; target: 'bottom' | 'top' | string }
  | { verb: 'wait'; ms: number }
  | { verb: 'waitForText'; text: string }
  | { verb: 'viewport'; width: number; height: number }
  | { verb: 'screenshot' }
  | { verb: 'verifyText'; text: string; visible: boolean }
  | { verb: 'verifyElement'; role: TargetRole; name: string; visible: boolean }
  | { verb: 'verifyUrl'; text: string }
  | { verb: 'verifyTitle'; text: string }
  | { verb: 'verifyValue'; field: string; value: string }
  | { verb: 'verifyInvalid'; field: string }
  | { verb: 'verifyNoErrors' }
  | { verb: 'verifyCount'; role: TargetRole; atLeast: number }
  | { verb: 'verifyNoConsoleErrors' }
  | { verb: 'verifyNoFailedRequests' }
  | { verb: 'verifyLinksWork' }
  | { verb: 'verifyImagesAlt' }
  | { verb: 'verifyNoOverflow' }
  | { verb: 'verifyAccessibility' };

export type TargetRole = 'button' | 'link' | 'heading' | 'textbox' | 'checkbox' | 'img' | 'row' | 'listitem';
const ROLES = 'button|link|heading|textbox|checkbox|img|row|listitem';

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
      ms: Math.min(30_000, Number(m[1]) * (m[2].toLowerCase().startsWith('m') ? 1 : 1000)),
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
