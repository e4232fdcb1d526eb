import { AbortedError } from '@argus/engine';
import { APICallError, NoObjectGeneratedError, RetryError } from 'ai';
import { type ModelConfig, providerEndpoint } from './model-config';

/** Why a model call ended without an answer; each has a message a user can act on. */
export type ModelErrorCode =
  | 'auth'
  | 'not_found'
  | 'rate_limited'
  | 'timeout'
  | 'unreachable'
  | 'server'
  | 'bad_request'
  | 'refused'
  | 'invalid_output'
  | 'no_progress'
  | 'budget'
  | 'too_large';

/** A model call that failed, said plainly; runs record it as the step's or generation's error. */
export class ModelError extends Error {
  constructor(
    readonly code: ModelErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

/**
 * A response body that passed its reader's limit, counted after decompression (a small gzip answer can
 * inflate to gigabytes). Thrown by a capped fetch as it reads, so the read stops there.
 */
export class AnswerTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(
      `The answer was larger than ${formatBytes(limitBytes)} (counted after decompression), the most this server reads.`,
    );
    this.name = 'AnswerTooLargeError';
  }
}

/** "8 MB", "512 KB", "300 bytes": limits as people read them (1 MB = 1024 × 1024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}

/** The AnswerTooLargeError somewhere in an error's cause chain (the AI SDK wraps what fetch threw). */
function tooLargeIn(error: unknown): AnswerTooLargeError | undefined {
  let current: unknown = error;
  for (let i = 0; i < 6 && current instanceof Error; i++) {
    if (current instanceof AnswerTooLargeError) return current;
    current = current.cause;
  }
  return undefined;
}

function statusOf(error: unknown): number | undefined {
  if (APICallError.isInstance(error)) return error.statusCode;
  return undefined;
}

/**
 * The provider's own words from a JSON error body (`{"error":{"message":"…"}}` and the like), short.
 * A body that is not such an error is never quoted: whatever answered may not be a model provider.
 */
function providerSays(error: APICallError): string {
  try {
    const parsed = JSON.parse(error.responseBody ?? '') as {
      error?: { message?: unknown } | unknown;
      message?: unknown;
    };
    const inner = parsed.error as { message?: unknown } | string | undefined;
    const text = typeof inner === 'string' ? inner : typeof inner?.message === 'string' ? inner.message : '';
    return text ? `: ${text.slice(0, 200)}` : '';
  } catch {
    return '';
  }
}

const NETWORK_CODES =
  /Cannot connect to API|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|fetch failed|socket hang up/i;

function causeText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let i = 0; i < 4 && current; i++) {
    if (current instanceof Error) {
      parts.push(current.message, String((current as { code?: unknown }).code ?? ''));
      current = current.cause;
    } else break;
  }
  return parts.join(' ');
}

/** Seconds a 429's Retry-After (or retry-after-ms) asks for, if it says. */
export function retryAfterMs(error: unknown): number | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const headers = error.responseHeaders ?? {};
  const ms = Number.parseFloat(headers['retry-after-ms'] ?? '');
  if (Number.isFinite(ms)) return Math.max(0, ms);
  const after = headers['retry-after'];
  if (!after) return undefined;
  const seconds = Number.parseFloat(after);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(after);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** Whether a failed call is worth repeating after a pause: rate limits and the provider's own failures. */
export function isRetryable(error: unknown): boolean {
  const status = statusOf(error);
  return status === 429 || status === 408 || (status !== undefined && status >= 500);
}

/** Any failure of the AI SDK (or the network under it) as a ModelError; a stop stays an AbortedError. */
export function toModelError(error: unknown, config: ModelConfig, timeoutMs: number): Error {
  if (error instanceof ModelError || error instanceof AbortedError) return error;
  if (RetryError.isInstance(error)) return toModelError(error.lastError, config, timeoutMs);
  // Before the status: the SDK reports a body that broke off mid-read as a failed HTTP 200.
  const tooLarge = tooLargeIn(error);
  if (tooLarge)
    return new ModelError(
      'too_large',
      `The model server at ${providerEndpoint(config)} answered with more than ${formatBytes(tooLarge.limitBytes)} (counted after decompression), the most this server reads from a model; the answer was not read further. Is the base URL a model API?`,
    );
  const status = statusOf(error);
  if (APICallError.isInstance(error) && status !== undefined) {
    const says = providerSays(error);
    if (status === 401 || status === 403)
      return new ModelError(
        'auth',
        `The model provider refused the request (HTTP ${status}${says}): check your API key in Settings.`,
      );
    if (status === 404)
      return new ModelError(
        'not_found',
        `The model provider does not know the model '${config.model}' (HTTP 404${says}): check the model name in Settings.`,
      );
    if (status === 429)
      return new ModelError(
        'rate_limited',
        `The model provider is rate-limiting requests (HTTP 429${says}) and still was after retrying; try again in a minute or raise your provider's limits.`,
      );
    if (status >= 500)
      return new ModelError('server', `The model provider failed (HTTP ${status}${says}); try again later.`);
    return new ModelError('bad_request', `The model provider rejected the request (HTTP ${status}${says}).`);
  }
  if (NoObjectGeneratedError.isInstance(error)) {
    return new ModelError('invalid_output', invalidOutputMessage(error));
  }
  const text = causeText(error);
  const refused = /The server may not call this address: [^\n]*/.exec(text);
  if (refused) return new ModelError('unreachable', refused[0]);
  if (/unexpected redirect|redirect mode is set to error/i.test(text))
    return new ModelError(
      'unreachable',
      `The model server at ${providerEndpoint(config)} answered with a redirect, which is not followed: use the address it redirects to.`,
    );
  if (NETWORK_CODES.test(text))
    return new ModelError(
      'unreachable',
      `Could not reach the model server at ${providerEndpoint(config)} (${(text.match(NETWORK_CODES) ?? ['no answer'])[0]}). Is it running, and is the base URL right?`,
    );
  return new ModelError(
    'server',
    `The model call failed: ${error instanceof Error ? error.message : String(error)}`,
  );
}

function invalidOutputMessage(error: NoObjectGeneratedError): string {
  const cause = error.cause instanceof Error ? error.cause.message : '';
  if (/JSON/i.test(cause) && !/Type validation/i.test(cause))
    return `The model's answer was not valid JSON: ${(error.text ?? '').slice(0, 120) || '(empty)'}`;
  return `The model's answer did not match the expected shape: ${firstLine(cause) || 'no object'}`;
}

function firstLine(text: string): string {
  return text.split('\n').slice(0, 3).join(' ').slice(0, 300);
}
