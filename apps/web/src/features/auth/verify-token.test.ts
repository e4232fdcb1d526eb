import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { isRetryable, TOKEN_VERIFY_ATTEMPTS, verifyTokenWithRetry } from './verify-token';

const user = { id: 'u1' };

describe('verifyTokenWithRetry (spec §9: 3 attempts, 1 s × attempt number apart)', () => {
  it('answers at once when the first check succeeds', async () => {
    const check = vi.fn().mockResolvedValue(user);
    const sleep = vi.fn().mockResolvedValue(undefined);
    await expect(verifyTokenWithRetry(check, { sleep })).resolves.toBe(user);
    expect(check).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('retries network and server failures, waiting 1 s then 2 s', async () => {
    const check = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(0, 'offline'))
      .mockRejectedValueOnce(new ApiError(503, 'HTTP error! status: 503'))
      .mockResolvedValue(user);
    const sleep = vi.fn().mockResolvedValue(undefined);
    await expect(verifyTokenWithRetry(check, { sleep })).resolves.toBe(user);
    expect(check).toHaveBeenCalledTimes(3);
    expect(sleep.mock.calls.map((c) => c[0])).toEqual([1000, 2000]);
  });

  it('gives up after 3 attempts with the last error', async () => {
    const last = new ApiError(500, 'HTTP error! status: 500');
    const check = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(0, 'offline'))
      .mockRejectedValueOnce(new ApiError(0, 'offline'))
      .mockRejectedValueOnce(last);
    const sleep = vi.fn().mockResolvedValue(undefined);
    await expect(verifyTokenWithRetry(check, { sleep })).rejects.toBe(last);
    expect(check).toHaveBeenCalledTimes(TOKEN_VERIFY_ATTEMPTS);
    expect(sleep).toHaveBeenCalledTimes(2);
  });

  it('does not retry a 401: the token is simply invalid', async () => {
    const unauthorized = new ApiError(401, 'Authentication failed');
    const check = vi.fn().mockRejectedValue(unauthorized);
    const sleep = vi.fn().mockResolvedValue(undefined);
    await expect(verifyTokenWithRetry(check, { sleep })).rejects.toBe(unauthorized);
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const check = vi.fn().mockImplementation(async () => {
      controller.abort();
      throw new ApiError(0, 'offline');
    });
    await expect(verifyTokenWithRetry(check, { signal: controller.signal })).rejects.toBeInstanceOf(ApiError);
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('classifies errors', () => {
    expect(isRetryable(new TypeError('fetch failed'))).toBe(true);
    expect(isRetryable(new ApiError(404, 'x'))).toBe(false);
    expect(isRetryable(new DOMException('aborted', 'AbortError'))).toBe(false);
  });
});
