import { ApiError } from '../../lib/api-error';
import { sleep as defaultSleep } from '../../lib/sleep';

/** Spec §9: token verification makes 3 attempts, waiting 1 s times the attempt number between them. */
export const TOKEN_VERIFY_ATTEMPTS = 3;
export const TOKEN_VERIFY_DELAY_MS = 1000;

export interface VerifyOptions {
  attempts?: number;
  delayMs?: number;
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Only failures that may go away are retried: no answer at all, or a 5xx. A 401 (or any other 4xx)
 * is the server's final word and is returned at once.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof ApiError) return error.isTransient;
  return !(error instanceof DOMException && error.name === 'AbortError');
}

/** Runs `check` until it succeeds, a non-retryable error occurs, or the attempts run out. */
export async function verifyTokenWithRetry<T>(
  check: (signal?: AbortSignal) => Promise<T>,
  {
    attempts = TOKEN_VERIFY_ATTEMPTS,
    delayMs = TOKEN_VERIFY_DELAY_MS,
    signal,
    sleep = defaultSleep,
  }: VerifyOptions = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await check(signal);
    } catch (error) {
      if (signal?.aborted || attempt >= attempts || !isRetryable(error)) throw error;
      await sleep(delayMs * attempt, signal);
    }
  }
}
