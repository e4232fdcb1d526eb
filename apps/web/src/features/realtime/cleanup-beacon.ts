import type { CleanupBeacon } from '@argus/protocol';

/**
 * docs/PRODUCT.md#stopping-a-conversation: on page unload the running conversation is stopped with a beacon to `/cleanup`. A beacon
 * cannot set headers, so the token travels in the body (docs/ARCHITECTURE.md#departures-from-the-spec-and-why). Returns whether the browser
 * queued it.
 */
export function sendCleanupBeacon({
  token,
  sessionId,
  now = new Date(),
}: {
  token: string;
  sessionId: string | null;
  now?: Date;
}): boolean {
  if (typeof navigator === 'undefined' || typeof navigator.sendBeacon !== 'function') return false;
  const beacon: CleanupBeacon = {
    token,
    type: 'stop_conversation',
    data: {
      session_id: sessionId,
      reason: 'page_unload',
      forced_cleanup: true,
      timestamp: now.toISOString(),
    },
  };
  const body = JSON.stringify(beacon);
  try {
    return navigator.sendBeacon('/cleanup', new Blob([body], { type: 'application/json' }));
  } catch {
    return false;
  }
}
