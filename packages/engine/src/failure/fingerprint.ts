import { createHash } from 'node:crypto';

/**
 * The same failure's key across cases and runs (docs/DIAGNOSTICS.md): what differs from one run to the
 * next (ids, numbers, quoted values, URL queries, ports) is folded into placeholders, so two runs
 * failing the same way share a fingerprint and two different targets do not. The server fingerprints a
 * flaky case with these too.
 */

/** Folding rules, in order: each rewrites what the earlier ones left. */
const FOLDS: [RegExp, string][] = [
  // A URL's query string and fragment: `?run=42&t=…` says which run, not which failure.
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>?#]*)[?#][^\s"'<>)]*/gi, '$1?<query>'],
  // Quoted values: "…", '…' and typographic quotes (a run's own item names and ids are quoted).
  [/"[^"\n]*"/g, '"<q>"'],
  [/'[^'\n]*'/g, "'<q>'"],
  [/“[^”\n]*”/g, '“<q>”'],
  // UUIDs, then long hex ids (commit hashes, object ids), then ids mixing letters and digits.
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<hex>'],
  [/\b(?=[a-z0-9_-]*\d)(?=[a-z0-9_-]*[a-z])[a-z0-9_-]{6,}\b/gi, '<id>'],
  // Numbers last: counts, ports, durations, timestamps.
  [/\d+/g, '<n>'],
];

/** An error as the fingerprint sees it: volatile parts folded, lower-cased, spaces collapsed. */
export function foldFailureText(text: string): string {
  let folded = text;
  for (const [pattern, placeholder] of FOLDS) folded = folded.replace(pattern, placeholder);
  return folded.replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * The fingerprint of a failure: the first 16 hex characters of SHA-256 over the failing step's verb
 * and target (as written, `{{NAME}}` unfilled) and the folded error.
 */
export function failureFingerprint(verb: string, target: string, error: string): string {
  return createHash('sha256')
    .update(`${verb} ${target}\n${foldFailureText(error)}`)
    .digest('hex')
    .slice(0, 16);
}
