import { type StepVariables, secretValues } from '../variables';

/**
 * Every way a secret's value may be written down in what a case leaves behind (a trace, its console
 * and network): as typed, JSON-escaped (once, and twice for a JSON string inside JSON such as a call
 * log), URL-encoded (`%20` and `+` for spaces, and as a form sends it) and HTML-escaped.
 */

/** A secret to hide: its value is replaced by `{{name}}`. */
export interface NamedSecret {
  name: string;
  value: string;
}

/** One way of writing one secret. */
export interface SecretSpelling {
  name: string;
  form: string;
}

/**
 * Secrets shorter than this are not searched for (as `secretValues` does for variables): hiding every
 * "42" would garble everything and protect nothing a guess would not find.
 */
const MIN_HIDDEN_LENGTH = 4;

/** The variables' secrets and the extra ones (a login's password, its TOTP codes), longest first. */
export function collectSecrets(
  variables: StepVariables | undefined,
  extra: Record<string, string> | undefined,
): NamedSecret[] {
  const all = [...secretValues(variables)];
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (value.length >= MIN_HIDDEN_LENGTH) all.push({ name, value });
  }
  return all.sort((a, b) => b.value.length - a.value.length);
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);

/** Each secret's spellings, longest first, so a spelling inside another is never half-replaced. */
export function secretSpellings(secrets: NamedSecret[]): SecretSpelling[] {
  const seen = new Set<string>();
  const out: SecretSpelling[] = [];
  for (const { name, value } of secrets) {
    const uri = encodeURIComponent(value);
    const html = value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
    const forms = [
      value,
      jsonEscaped(value),
      jsonEscaped(jsonEscaped(value)),
      uri,
      uri.replace(/%20/g, '+'),
      new URLSearchParams({ v: value }).toString().slice(2),
      html,
      html.replace(/&#39;/g, '&#x27;'),
      jsonEscaped(html),
    ];
    for (const form of forms) {
      if (form.length === 0 || seen.has(form)) continue;
      seen.add(form);
      out.push({ name, form });
    }
  }
  return out.sort((a, b) => b.form.length - a.form.length);
}

/**
 * A spelling made only of digits (a TOTP code) is hidden where it stands as a token of its own: inside
 * a longer run of letters and digits (a timestamp, a hash, a resource's name) it is not the code, and
 * rewriting it there would break the file.
 */
export function spellingPattern(form: string): RegExp | null {
  return /^\d+$/.test(form) ? new RegExp(`(?<![0-9A-Za-z])${form}(?![0-9A-Za-z])`, 'g') : null;
}

/** `text` with every spelling of every secret replaced by `{{NAME}}`. */
export function hideSpellings(text: string, spellings: SecretSpelling[]): string {
  let out = text;
  for (const { name, form } of spellings) {
    if (!out.includes(form)) continue;
    const pattern = spellingPattern(form);
    out = pattern ? out.replace(pattern, `{{${name}}}`) : out.split(form).join(`{{${name}}}`);
  }
  return out;
}

/** A text hider for the given secrets (the identity when there are none). */
export function secretHider(secrets: NamedSecret[]): (text: string) => string {
  const spellings = secretSpellings(secrets);
  if (spellings.length === 0) return (text) => text;
  return (text) => hideSpellings(text, spellings);
}

/**
 * Headers whose values are credentials: shown as `[redacted]` in a case's network entries and trace.
 * Any header whose name holds `token` or `secret` counts too.
 */
const CREDENTIAL_HEADERS = new Set([
  'cookie',
  'set-cookie',
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'x-auth-token',
]);

export const REDACTED = '[redacted]';

export function isCredentialHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_HEADERS.has(lower) || lower.includes('token') || lower.includes('secret');
}

/** Headers with credentials redacted and secrets hidden in the rest. */
export function cleanHeaders(
  headers: Record<string, string>,
  hide: (text: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = isCredentialHeader(name) ? REDACTED : hide(value);
  }
  return out;
}
