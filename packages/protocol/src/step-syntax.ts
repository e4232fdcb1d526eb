import { type StepOf, type StepVerb, TargetRoleSchema } from './step-schema';

// The pieces lines of the step language are made of (quoted arguments, regions, roles) and the type of
// a verb's entry in `STEP_GRAMMAR` (step-language.ts), which reads and writes lines with them.

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
export const Q = `(?:"((?:[^"\\\\]|\\\\.)*)"|'((?:[^'\\\\]|\\\\.)*)')`;
export const unquote = (m: RegExpMatchArray, i: number) =>
  (m[i] ?? m[i + 1] ?? '').replace(/\\(["'\\])/g, '$1');
/** An optional region suffix ` in "<region>"` (two groups). */
export const IN = `(?:\\s+in\\s+${Q})?`;
/** `{ region }` when the optional quoted argument at group `i` is there, else nothing. */
export const region = (m: RegExpMatchArray, i: number): { region?: string } =>
  m[i] === undefined && m[i + 1] === undefined ? {} : { region: unquote(m, i) };

/** Longest names first, so `listitem` is not read as `list`. */
export const ROLES = [...TargetRoleSchema.options].sort((a, b) => b.length - a.length).join('|');
/** A role, singular or plural (`rows`, `checkboxes`, `listitems`): group 1 is the role. */
export const ROLE_PLURAL = `(${ROLES})(?:es|s)?`;

/** A whole line's pattern, case-insensitive. */
export const r = (source: string) => new RegExp(`^${source}$`, 'i');

/** A written form of a verb: the pattern of a whole line, and the step it reads. */
export type Form<V extends StepVerb> = readonly [RegExp, (m: RegExpMatchArray) => StepOf<V>];

/** A verb as the language writes it. */
export interface VerbGrammar<V extends StepVerb> {
  /** The forms a line of it takes, tried in order (after the verbs before it): the first that reads it wins. */
  forms: readonly Form<V>[];
  /** Its canonical line (the form docs/STEP-LANGUAGE.md lists first). */
  format: (step: StepOf<V>) => string;
}

/** Quotes a value for a step line. */
export function q(value: string): string {
  return `"${value.replace(/(["\\])/g, '\\$1')}"`;
}

/** A URL written bare when it reads back the same (no spaces, quotes first, or final period), else quoted. */
export const url = (value: string) => (/^[^\s"']\S*$/.test(value) && !value.endsWith('.') ? value : q(value));
export const inRegion = (region: string | undefined) => (region === undefined ? '' : ` in ${q(region)}`);
export const visibility = (visible: boolean) => (visible ? 'is visible' : 'is not visible');
/** Two digits at least, as the grammar reads sizes. */
export const size = (n: number) => String(n).padStart(2, '0');
