import { toValidationIssues } from '@argus/protocol';
import type { z } from 'zod';
import { isKnownNulFree, MAX_BODY_DEPTH, MAX_BODY_VALUES, tooDeep, tooManyValues } from './body-limits';
import { AppError } from './errors';

// Apart from errors.ts because the walk below is bounded by body-limits.ts, which itself builds AppErrors:
// in one file the two imported each other.

type PathPart = string | number;
/** One value met while walking: where it sits, by a pointer to its parent, so paths are built only for hits. */
interface Visit {
  value: unknown;
  parent: Visit | null;
  key: PathPart | null;
  depth: number;
}

function pathOf(visit: Visit): PathPart[] {
  const path: PathPart[] = [];
  for (let at: Visit | null = visit; at && at.key !== null; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * Paths of strings (keys included) holding U+0000, which PostgreSQL text and jsonb cannot store.
 * Iterative, with an explicit stack, and bounded like request bodies: a hostile value cannot exhaust
 * the call stack or hold the event loop.
 */
function nulPaths(value: unknown): PathPart[][] {
  const found: PathPart[][] = [];
  const stack: Visit[] = [{ value, parent: null, key: null, depth: 0 }];
  let values = 0;
  while (stack.length) {
    const visit = stack.pop() as Visit;
    if (++values > MAX_BODY_VALUES) throw tooManyValues();
    // A key is reported as its member is reached, so hits come in document order, as before.
    if (typeof visit.key === 'string' && visit.key.includes('\u0000')) found.push(pathOf(visit));
    const item = visit.value;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) found.push(pathOf(visit));
      continue;
    }
    if (!item || typeof item !== 'object') continue;
    if (visit.depth >= MAX_BODY_DEPTH) throw tooDeep();
    const depth = visit.depth + 1;
    if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push({ value: item[i], parent: visit, key: i, depth });
    } else {
      const keys = Object.keys(item);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i];
        stack.push({ value: (item as Record<string, unknown>)[key], parent: visit, key, depth });
      }
    }
  }
  return found;
}

/** Validates `value` with a shared schema; failures become HTTP 422 with FastAPI-style `detail[]`. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, root: string): z.output<S> {
  // Bodies whose raw text held no NUL were cleared by their parser (body-limits.ts).
  const nul = isKnownNulFree(value) ? [] : nulPaths(value);
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
