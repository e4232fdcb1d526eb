import { formatStep, parseStep, type Step } from './step-language';

// Passwords typed in a conversation (docs/PROJECTS.md#sites-behind-a-login): never kept as typed. The
// server stores a conversation's steps with {{PASSWORD}} in their place (and the values masked in its
// words); 'Use as login' makes the same steps a project's login, whose {{PASSWORD}} secret then types it.

/** The secret a recorded login types into a password field instead of what was typed. */
export const PASSWORD_SECRET = 'PASSWORD';
export const PASSWORD_PLACEHOLDER = `{{${PASSWORD_SECRET}}}`;

function tryParse(line: string): Step | null {
  try {
    return parseStep(line);
  } catch {
    return null;
  }
}

const PASSWORD_FIELD = /password|passwort|passcode|\bpin\b/i;
const isPlaceholder = (value: string) => /^\s*\{\{\s*[A-Z][A-Z0-9_]*\s*\}\}\s*$/.test(value);

/** The field or control a step acts on, when it names one. */
function targetOf(step: Step): string | undefined {
  switch (step.verb) {
    case 'fill':
    case 'clear':
    case 'select':
    case 'verifyValue':
    case 'verifyInvalid':
      return step.field;
    case 'press':
      return step.field;
    case 'click':
    case 'doubleClick':
    case 'hover':
      return step.target;
    default:
      return undefined;
  }
}

/**
 * Replaces what was typed into a password field (a field whose name matches /password/i, or the
 * focused field right after such a field was clicked) by {{PASSWORD}}; the same text anywhere else in
 * the steps goes too. `replaced`: how many lines changed.
 */
export function protectPasswords(lines: readonly string[]): {
  lines: string[];
  replaced: number;
  /** The values that were typed as passwords (what a stored transcript must not show either). */
  typed: string[];
} {
  const typed = new Set<string>();
  let focusedOnPassword = false;
  const out = lines.map((line) => {
    const step = tryParse(line);
    if (!step) {
      focusedOnPassword = false;
      return line;
    }
    let next: Step = step;
    if ((step.verb === 'fill' || step.verb === 'verifyValue') && PASSWORD_FIELD.test(step.field)) {
      if (!isPlaceholder(step.value)) {
        if (step.value !== '') typed.add(step.value);
        next = { ...step, value: PASSWORD_PLACEHOLDER };
      }
    } else if ((step.verb === 'type' || step.verb === 'fillFocused') && focusedOnPassword) {
      if (!isPlaceholder(step.value)) {
        if (step.value !== '') typed.add(step.value);
        next = { ...step, value: PASSWORD_PLACEHOLDER };
      }
    }
    const target = targetOf(step);
    if (target !== undefined) focusedOnPassword = PASSWORD_FIELD.test(target);
    else if (step.verb !== 'type' && step.verb !== 'fillFocused' && step.verb !== 'wait')
      focusedOnPassword = false;
    return next === step ? line : formatStep(next);
  });
  // The same password typed elsewhere (a second field, a 'Type' step) is not kept either.
  const scrubbed = out.map((line) => {
    let result = line;
    for (const value of typed) {
      if (value.length < 3) continue;
      result = result.split(`"${value.replace(/(["\\])/g, '\\$1')}"`).join(`"${PASSWORD_PLACEHOLDER}"`);
    }
    return result;
  });
  const replaced = scrubbed.filter((line, i) => line !== lines[i]).length;
  return { lines: scrubbed, replaced, typed: [...typed] };
}
