import { z } from 'zod';
import { ErrorCodeSchema } from './errors';

/** Longest URL accepted anywhere (browsers cope with more, but no real page needs it). */
export const MAX_URL_LENGTH = 4096;

/**
 * The refusal for a URL whose scheme is not http or https (`javascript:`, `file:`, `data:`,
 * `chrome:`…), word for word what the engine's target policy says when it meets one.
 */
export const URL_SCHEME_REFUSED = 'Blocked by the target policy: only http and https pages can be tested';
/** The refusal for text that is not an absolute URL at all (the wording of docs/PRODUCT.md#generation). */
export const URL_NOT_ABSOLUTE = 'Please enter a valid URL (including http:// or https://)';

/** Why `value` cannot be tested (one of the two texts above), or null when it is an absolute http(s) URL. */
export function httpUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return URL_NOT_ABSOLUTE;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? null : URL_SCHEME_REFUSED;
}

const urlText = () =>
  z.string().trim().max(MAX_URL_LENGTH, `URL must be at most ${MAX_URL_LENGTH} characters`);

/**
 * An absolute http(s) URL, parsed with the WHATWG URL parser (as browsers and the engine parse it), at
 * most 4,096 characters: the only kind of address a user can point Argus at. Every URL a client sends
 * is checked with it (or with `HttpUrlOrEmptySchema` where the spec allows an empty one). Answers the
 * server sends and rows it reads back are not: a row stored before this rule must still load.
 */
export const HttpUrlSchema = urlText().superRefine((value, ctx) => {
  const problem = httpUrlProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * `HttpUrlSchema`, or the empty string where the spec lets a URL be left empty (a session's URL; the
 * conversational screen's start page, which then defaults to a search engine's; a test case's own
 * URL, which then falls back to its run's URL). Never another scheme, never a relative URL.
 */
export const HttpUrlOrEmptySchema = urlText().superRefine((value, ctx) => {
  if (value === '') return;
  const problem = httpUrlProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** A path parameter naming one record (`/api/sessions/{id}`, `/api/automation/test-runs/{id}`, …). */
export const IdParamsSchema = z.object({ id: z.string().max(100) });

/** The session a socket message names (a server id, or a client's `local_…` one). */
export const SessionIdSchema = z.string().max(100);

/** ISO-8601 timestamp as sent over the wire. */
export const TimestampSchema = z.string().max(64);

/** Free-form JSON object (settings, metadata); its size is bounded by the request body limit. */
export const JsonObjectSchema = z.record(z.string(), z.unknown());
export type JsonObject = z.infer<typeof JsonObjectSchema>;

/** The FastAPI-style validation error entry the spec's clients read (`detail[]`). */
export const ValidationIssueSchema = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;

/** Every error answer: `detail` is a message, or a list of validation issues for HTTP 422. */
export const ErrorResponseSchema = z.object({
  detail: z.union([z.string(), z.array(ValidationIssueSchema)]),
  code: ErrorCodeSchema.optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/** Turns zod issues into the FastAPI-style list, rooted at `root` (e.g. 'body', 'query'). */
export function toValidationIssues(error: z.ZodError, root: string): ValidationIssue[] {
  return error.issues.map((issue) => {
    const missing = issue.code === 'invalid_type' && issue.message.endsWith('received undefined');
    return {
      loc: [root, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
      msg: missing ? 'Field required' : issue.message,
      type: missing ? 'missing' : issue.code,
    };
  });
}
