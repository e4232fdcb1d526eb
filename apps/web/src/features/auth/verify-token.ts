import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api-error';

/** docs/PRODUCT.md#sign-in: token verification makes 3 attempts, waiting 1 s times the attempt number between them. */
export const TOKEN_VERIFY_ATTEMPTS = 3;
export const TOKEN_VERIFY_DELAY_MS = 1000;

/** The token check's query (the token itself stays out of the key); cancel it with this key. */
export const TOKEN_CHECK_KEY = ['auth', 'token-check'] as const;

/**
 * Only failures that may go away are retried: no answer at all, or a 5xx. A 401 (or any other 4xx)
 * is the server's final word and is returned at once.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof ApiError) return error.isTransient;
  return !(error instanceof DOMException && error.name === 'AbortError');
}

/**
 * TanStack Query's retry options for the token check. Query calls both with the number of failures
 * before this one (0 after the first attempt failed).
 */
export const TOKEN_CHECK_RETRY = {
  retry: (failuresBefore: number, error: unknown) =>
    failuresBefore + 1 < TOKEN_VERIFY_ATTEMPTS && isRetryable(error),
  retryDelay: (failuresBefore: number) => TOKEN_VERIFY_DELAY_MS * (failuresBefore + 1),
  // Offline counts as a failed attempt (shown as 'Token verification failed') instead of waiting.
  networkMode: 'always',
} as const;

/**
 * Checks the saved token with `check` (GET /api/auth/me), retried as docs/PRODUCT.md#sign-in says. Resolves with its
 * answer or rejects with the last error; `queryClient.cancelQueries({ queryKey: TOKEN_CHECK_KEY })`
 * aborts it (its signal) and rejects it with a CancelledError.
 */
export function verifyToken<T>(
  queryClient: QueryClient,
  check: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  return queryClient.fetchQuery({
    queryKey: TOKEN_CHECK_KEY,
    queryFn: ({ signal }) => check(signal),
    staleTime: 0,
    gcTime: 0,
    ...TOKEN_CHECK_RETRY,
  });
}
