import { ERRORS, type ErrorCode, toValidationIssues, type ValidationIssue } from '@argus/protocol';
import type { z } from 'zod';

/** An error with a code from the shared catalogue; REST answers `{detail}`, the socket sends `error`. */
export class AppError extends Error {
  readonly status: number;
  readonly detail: string | ValidationIssue[];
  constructor(
    readonly code: ErrorCode,
    detail?: string | ValidationIssue[],
    readonly headers: Record<string, string> = {},
  ) {
    const text = typeof detail === 'string' ? detail : ERRORS[code].detail;
    super(text);
    this.status = ERRORS[code].status;
    this.detail = detail ?? ERRORS[code].detail;
  }
}

/** Paths of strings (keys included) holding U+0000, which PostgreSQL text and jsonb cannot store. */
function nulPaths(value: unknown, path: (string | number)[] = [], found: (string | number)[][] = []) {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) found.push(path);
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) nulPaths(item, [...path, i], found);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) found.push([...path, key]);
      nulPaths(item, [...path, key], found);
    }
  }
  return found;
}

/** Validates `value` with a shared schema; failures become HTTP 422 with FastAPI-style `detail[]`. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, root: string): z.output<S> {
  const nul = nulPaths(value);
  if (nul.length) {
    throw new AppError(
      'VALIDATION',
      nul.map((path) => ({
        loc: [root, ...path],
        msg: 'Text may not contain NUL (\\u0000) characters',
        type: 'nul_character',
      })),
    );
  }
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw new AppError('VALIDATION', toValidationIssues(result.error, root));
  return result.data;
}
