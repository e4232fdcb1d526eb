import type { Repositories } from '@argus/db';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import type { BlobStore } from '../storage/blob-store';
import type { SignedUrls } from '../storage/signed-urls';
import { RunRecorder } from './run-recorder';

const unreachable = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));

/** A recorder whose database refuses `update` and refuses `updateIfOpen` the first `refusals` times. */
function recorderOn(refusals: number) {
  let tries = 0;
  const updateIfOpen = vi.fn(async () => {
    tries++;
    if (tries <= refusals) return unreachable();
    return { id: 'run-1', status: 'error' };
  });
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const recorder = new RunRecorder({
    repos: { testRuns: { update: vi.fn(unreachable), updateIfOpen } } as unknown as Repositories,
    blobs: {} as BlobStore,
    urls: {} as SignedUrls,
    log: log as unknown as FastifyBaseLogger,
    maxStoredBytesPerUser: 1e9,
    retryEnd: { forMs: 300, everyMs: 10 },
  });
  return { recorder, updateIfOpen, log };
}

describe('RunRecorder.failed with a database that refuses it', () => {
  it('answers at once, then records the end once the database takes it, if the run is still open', async () => {
    const { recorder, updateIfOpen, log } = recorderOn(2);
    await recorder.failed('u1', 'run-1');
    expect(log.warn).toHaveBeenCalledWith(
      expect.anything(),
      'a failed run could not be recorded; trying again',
    );
    await vi.waitFor(() => expect(log.info).toHaveBeenCalledWith({ runId: 'run-1' }, expect.any(String)));
    expect(updateIfOpen).toHaveBeenCalledTimes(3);
    expect(updateIfOpen).toHaveBeenLastCalledWith('u1', 'run-1', {
      status: 'error',
      completed_at: expect.any(Date),
    });
    expect(log.error).not.toHaveBeenCalled();
  });

  it('gives up, and says so, when the database stays away past the retry window', async () => {
    const { recorder, updateIfOpen, log } = recorderOn(Number.POSITIVE_INFINITY);
    await recorder.failed('u1', 'run-1');
    await vi.waitFor(() =>
      expect(log.error).toHaveBeenCalledWith(expect.anything(), 'a failed run could not be recorded'),
    );
    const tries = updateIfOpen.mock.calls.length;
    expect(tries).toBeGreaterThan(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(updateIfOpen.mock.calls.length).toBe(tries);
  });
});
