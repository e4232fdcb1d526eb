import { CancelledError, QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { isRetryable, TOKEN_CHECK_KEY, TOKEN_VERIFY_ATTEMPTS, verifyToken } from './verify-token';

const user = { id: 'u1' };

/** A check that answers from `outcomes` in turn and records when (fake ms since the start) it ran. */
function scripted(outcomes: Array<Error | typeof user>) {
  const start = Date.now();
  const calledAt: number[] = [];
  const check = vi.fn(async (_signal: AbortSignal) => {
    calledAt.push(Date.now() - start);
    const outcome = outcomes[Math.min(calledAt.length, outcomes.length) - 1];
    if (outcome instanceof Error) throw outcome;
    return outcome;
  });
  return { check, calledAt };
}

/** Settles `promise` while the fake clock runs on, so Query's retry delays pass. */
async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  const result = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await vi.advanceTimersByTimeAsync(10_000);
  return result;
}

describe('verifyToken (docs/PRODUCT.md#sign-in: 3 attempts, 1 s × attempt number apart, with TanStack Query retry)', () => {
  let queryClient: QueryClient;
  beforeEach(() => {
    vi.useFakeTimers();
    // The app's defaults: queries do not retry unless they say so.
    queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  });
  afterEach(() => {
    queryClient.clear();
    vi.useRealTimers();
  });

  it('answers at once when the first check succeeds', async () => {
    const { check } = scripted([user]);
    expect(await settle(verifyToken(queryClient, check))).toEqual({ value: user });
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('retries network and server failures, waiting 1 s then 2 s', async () => {
    const { check, calledAt } = scripted([
      new ApiError(0, 'offline'),
      new ApiError(503, 'HTTP error! status: 503'),
      user,
    ]);
    expect(await settle(verifyToken(queryClient, check))).toEqual({ value: user });
    expect(calledAt).toEqual([0, 1000, 3000]);
  });

  it('gives up after 3 attempts with the last error', async () => {
    const last = new ApiError(500, 'HTTP error! status: 500');
    const { check, calledAt } = scripted([new ApiError(0, 'offline'), new ApiError(0, 'offline'), last]);
    expect(await settle(verifyToken(queryClient, check))).toEqual({ error: last });
    expect(check).toHaveBeenCalledTimes(TOKEN_VERIFY_ATTEMPTS);
    expect(calledAt).toEqual([0, 1000, 3000]);
  });

  it('does not retry a 401: the token is simply invalid', async () => {
    const unauthorized = new ApiError(401, 'Authentication failed');
    const { check } = scripted([unauthorized]);
    expect(await settle(verifyToken(queryClient, check))).toEqual({ error: unauthorized });
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('stops when cancelled: the check in flight is aborted and no retry follows', async () => {
    let signal: AbortSignal | undefined;
    const check = vi.fn((s: AbortSignal) => {
      signal = s;
      return new Promise<typeof user>(() => {});
    });
    const pending = verifyToken(queryClient, check);
    await vi.advanceTimersByTimeAsync(0);
    await queryClient.cancelQueries({ queryKey: TOKEN_CHECK_KEY });
    const { error } = await settle(pending);
    expect(error).toBeInstanceOf(CancelledError);
    expect(signal?.aborted).toBe(true);
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('stops when cancelled between attempts', async () => {
    const { check } = scripted([new ApiError(0, 'offline'), user]);
    const pending = verifyToken(queryClient, check);
    await vi.advanceTimersByTimeAsync(500);
    await queryClient.cancelQueries({ queryKey: TOKEN_CHECK_KEY });
    const { error } = await settle(pending);
    expect(error).toBeInstanceOf(CancelledError);
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('classifies errors', () => {
    expect(isRetryable(new TypeError('fetch failed'))).toBe(true);
    expect(isRetryable(new ApiError(404, 'x'))).toBe(false);
    expect(isRetryable(new DOMException('aborted', 'AbortError'))).toBe(false);
  });
});
