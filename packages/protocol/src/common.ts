import { z } from 'zod';

/** An absolute http(s) URL, the only kind of address a user can point Argus at. */
export const HttpUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'Must be an absolute URL starting with http:// or https://');

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
  code: z.string().optional(),
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
