/**
 * docs/PRODUCT.md#stopping-a-conversation: a stop is ignored while another is in progress or while the page unloads; the automatic
 * stops (unload, page hide, back/forward, unmount) happen once per clean-up of a session.
 */
export interface StopGuard {
  /** A user's (or the server-error) stop may begin: false while one is in progress or the page unloads. */
  tryBegin: () => boolean;
  /** The stop was confirmed, failed or timed out. */
  end: () => void;
  isInProgress: () => boolean;
  setUnloading: (unloading: boolean) => void;
  isUnloading: () => boolean;
  /** The automatic clean-up of `sessionId` may run: true once per session. */
  claimCleanup: (sessionId: string | null) => boolean;
}

export function createStopGuard(): StopGuard {
  let inProgress = false;
  let unloading = false;
  const cleaned = new Set<string>();
  return {
    tryBegin: () => {
      if (inProgress || unloading) return false;
      inProgress = true;
      return true;
    },
    end: () => {
      inProgress = false;
    },
    isInProgress: () => inProgress,
    setUnloading: (value) => {
      unloading = value;
    },
    isUnloading: () => unloading,
    claimCleanup: (sessionId) => {
      if (!sessionId || cleaned.has(sessionId)) return false;
      cleaned.add(sessionId);
      return true;
    },
  };
}

/** How long a stop waits for the server's confirmation before it is taken as done. */
export const STOP_CONFIRM_TIMEOUT_MS = 10_000;
/** docs/PRODUCT.md#starting-a-conversation: the first message after an automatic start waits 1 s. */
export const AUTO_START_WAIT_MS = 1000;
