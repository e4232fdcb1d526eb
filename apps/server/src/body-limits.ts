import { parse as parseQueryString } from 'node:querystring';
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors';

/** Deepest nesting a request body (or socket message) may have; the app's own bodies need fewer than 10. */
export const MAX_BODY_DEPTH = 64;
/** Most values (objects, arrays, strings, numbers…) one request body or socket message may hold. */
export const MAX_BODY_VALUES = 100_000;

/** Bodies the parsers read whose raw text held no NUL, so `parseWith` need not walk them. */
const nulFree = new WeakSet<object>();

export function isKnownNulFree(value: unknown): boolean {
  return typeof value === 'object' && value !== null && nulFree.has(value);
}

function markNulFree(value: unknown): void {
  if (typeof value === 'object' && value !== null) nulFree.add(value);
}

export function tooDeep(): AppError {
  return new AppError(
    'BODY_TOO_DEEP',
    `Request body is nested too deeply (at most ${MAX_BODY_DEPTH} levels)`,
  );
}

export function tooManyValues(): AppError {
  return new AppError(
    'BODY_TOO_MANY_VALUES',
    `Request body holds too many values (at most ${MAX_BODY_VALUES.toLocaleString('en')})`,
  );
}

/**
 * Checks the shape of raw JSON text before it is parsed: one linear pass over the characters that
 * tracks nesting outside strings and counts values. Malformed text is left for JSON.parse to refuse.
 */
export function checkJsonShape(text: string): void {
  let depth = 0;
  let values = 1;
  // Whether the innermost open container has no element yet (its first element is counted on sight).
  const emptyContainer: boolean[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      if (depth > 0) {
        depth--;
        emptyContainer.pop();
      }
      continue;
    }
    if (depth > 0 && emptyContainer[depth - 1]) {
      emptyContainer[depth - 1] = false;
      values++;
    }
    if (c === 0x2c /* , */) values++;
    else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
      if (depth > MAX_BODY_DEPTH) throw tooDeep();
      emptyContainer.push(true);
    }
    if (values > MAX_BODY_VALUES) throw tooManyValues();
  }
}

/**
 * JSON text to a value within the limits above. JSON can carry U+0000 only as the escape `\u0000`,
 * so text without that sequence yields a value `parseWith` need not search for NULs.
 */
export function parseJsonText(text: string, parse: (text: string) => unknown = JSON.parse): unknown {
  checkJsonShape(text);
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    if (error instanceof AppError) throw error;
    // A RangeError (exhausted stack) is as much the client's fault as a SyntaxError.
    throw new AppError('MALFORMED_JSON', `Request body is not valid JSON: ${(error as Error).message}`);
  }
  if (!text.includes('\\u0000')) markNulFree(value);
  return value;
}

/** A form body (`a=1&b=2`) within the value limit; `%00` or a raw NUL leaves it for `parseWith` to search. */
export function parseFormText(text: string): Record<string, unknown> {
  let pairs = 1;
  for (let i = text.indexOf('&'); i !== -1; i = text.indexOf('&', i + 1)) {
    if (++pairs > MAX_BODY_VALUES) throw tooManyValues();
  }
  const value = parseQueryString(text, '&', '=', { maxKeys: 0 }) as Record<string, unknown>;
  if (!text.includes('%00') && !text.includes('\u0000')) markNulFree(value);
  return value;
}

/**
 * Replaces Fastify's JSON body parser with one that refuses over-deep or over-large structures with
 * a coded 4xx before parsing, keeping Fastify's prototype-poisoning protection.
 */
export function registerJsonBodyParser(app: FastifyInstance, bodyLimit: number): void {
  const fastifyJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    const text = body as string;
    if (text === '') {
      // Fastify's own answer for an empty JSON body (FST_ERR_CTP_EMPTY_JSON_BODY).
      fastifyJson(request, text, done);
      return;
    }
    let value: unknown;
    try {
      value = parseJsonText(text, (raw) => {
        let parsed: unknown;
        let failure: Error | null = null;
        fastifyJson(request, raw, (error, result) => {
          failure = error;
          parsed = result;
        });
        if (failure) throw failure;
        return parsed;
      });
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    done(null, value);
  });
}
