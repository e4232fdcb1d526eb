import { randomInt } from 'node:crypto';
import type { Step } from '@argus/protocol';

/**
 * A project environment's variables and secrets as a browser session uses them: steps carry
 * `{{NAME}}` and the session fills the value in only as it performs the step, so the value is in no
 * step text, log, record or prompt (docs/STEP-LANGUAGE.md#variables-and-secrets).
 */
export interface StepVariables {
  values: ReadonlyMap<string, { value: string; secret: boolean }>;
  /** Where the values come from, as a missing one's message says it: `environment "staging" of project "Shop"`. */
  source: string;
}

const PLACEHOLDER = /\{\{\s*([A-Z][A-Z0-9_]{0,63})\s*\}\}/g;
/**
 * Secrets shorter than this are filled in but not searched for in text to hide: hiding every "42" on
 * a page would garble messages without protecting anything a guess would not find.
 */
const MIN_REDACTED_LENGTH = 4;

/**
 * The built-in variable every session fills without a project: a short id of its own (six lowercase
 * letters and digits, at least one of each), the same for every step of one test case and another in
 * the next. Generated suites type it into what they create (`Buy milk {{RUN_ID}}`) so that, on an app
 * whose data every run shares, a check about "my ticket" cannot be answered by an earlier run's
 * (docs/STEP-LANGUAGE.md#variables-and-secrets). A project variable of the same name wins.
 */
export const RUN_ID = 'RUN_ID';
const RUN_ID_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A fresh value for `{{RUN_ID}}`: with a letter and a digit, so it reads as no word and no number. */
export function newRunId(): string {
  for (;;) {
    let id = '';
    for (let i = 0; i < 6; i++) id += RUN_ID_ALPHABET[randomInt(RUN_ID_ALPHABET.length)];
    if (/[a-z]/.test(id) && /\d/.test(id)) return id;
  }
}

/** A step names a variable the run has no value for. The message names the variable and where it looked. */
export class MissingVariableError extends Error {
  override name = 'MissingVariableError';
}

/**
 * `text` with each `{{NAME}}` replaced by its value (`{{RUN_ID}}` by `runId` when the variables have
 * none of that name); throws MissingVariableError for one without.
 */
export function fillText(text: string, variables: StepVariables | undefined, runId?: string): string {
  return text.replace(PLACEHOLDER, (_all, name: string) => {
    const entry = variables?.values.get(name);
    if (entry) return entry.value;
    if (name === RUN_ID && runId) return runId;
    throw new MissingVariableError(
      variables
        ? `No value for {{${name}}} in ${variables.source}: add it under the project's Variables and secrets`
        : `{{${name}}} is a project variable, and this run is not on a project environment to take it from`,
    );
  });
}

/** Whether `text` refers to a variable that is a secret. */
export function namesSecret(text: string, variables: StepVariables | undefined): boolean {
  if (!variables) return false;
  for (const [, name] of text.matchAll(PLACEHOLDER)) if (variables.values.get(name)?.secret) return true;
  return false;
}

/**
 * The step with its variables filled in (every text field of it), and whether a secret went in.
 * A step without `{{` comes back as it is.
 */
export function fillStep(
  step: Step,
  variables: StepVariables | undefined,
  runId?: string,
): { step: Step; secret: boolean } {
  let secret = false;
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (!value.includes('{{')) return value;
      if (namesSecret(value, variables)) secret = true;
      return fillText(value, variables, runId);
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    }
    return value;
  };
  const filled = JSON.stringify(step).includes('{{') ? (fill(step) as Step) : step;
  return { step: filled, secret };
}

/** The secrets' values worth hiding in text, longest first (so a secret inside another is not half-hidden). */
export function secretValues(variables: StepVariables | undefined): { name: string; value: string }[] {
  if (!variables) return [];
  return [...variables.values]
    .filter(([, entry]) => entry.secret && entry.value.length >= MIN_REDACTED_LENGTH)
    .map(([name, entry]) => ({ name, value: entry.value }))
    .sort((a, b) => b.value.length - a.value.length);
}

/**
 * Hides secrets in text meant for people or models: each secret's value (as typed, or URL-encoded as
 * a form sent by GET would show it) becomes its `{{NAME}}`. The identity when there are none.
 */
export function redactor(variables: StepVariables | undefined): (text: string) => string {
  const secrets = secretValues(variables);
  if (secrets.length === 0) return (text) => text;
  const forms = secrets.flatMap(({ name, value }) => {
    const encoded = [encodeURIComponent(value), encodeURIComponent(value).replace(/%20/g, '+')];
    return [value, ...encoded.filter((form) => form !== value)].map((form) => ({ name, form }));
  });
  return (text) => {
    let out = text;
    for (const { name, form } of forms) if (out.includes(form)) out = out.split(form).join(`{{${name}}}`);
    return out;
  };
}

/** An error whose message (and stack) no longer holds a secret; the same object, so its class stays. */
export function redactError(error: unknown, redact: (text: string) => string): unknown {
  if (error instanceof Error) {
    error.message = redact(error.message);
    if (error.stack) error.stack = redact(error.stack);
    return error;
  }
  return typeof error === 'string' ? redact(error) : error;
}
