import { afterEach, describe, expect, it, vi } from 'vitest';
import { sendCleanupBeacon } from './cleanup-beacon';

describe('sendCleanupBeacon', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends stop_conversation with the token to /cleanup', async () => {
    const sendBeacon = vi.fn().mockReturnValue(true);
    vi.stubGlobal('navigator', { sendBeacon });
    const queued = sendCleanupBeacon({
      token: 'tok',
      sessionId: 's1',
      now: new Date('2026-01-01T00:00:00Z'),
    });
    expect(queued).toBe(true);
    const [url, blob] = sendBeacon.mock.calls[0] as [string, Blob];
    expect(url).toBe('/cleanup');
    expect(blob.type).toBe('application/json');
    expect(JSON.parse(await blob.text())).toEqual({
      token: 'tok',
      type: 'stop_conversation',
      data: {
        session_id: 's1',
        reason: 'page_unload',
        forced_cleanup: true,
        timestamp: '2026-01-01T00:00:00.000Z',
      },
    });
  });

  it('answers false where beacons do not exist', () => {
    vi.stubGlobal('navigator', {});
    expect(sendCleanupBeacon({ token: 'tok', sessionId: null })).toBe(false);
  });
});
