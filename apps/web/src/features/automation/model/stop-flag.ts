/** docs/PRODUCT.md#stopping-a-run: the stop flag resets by itself 3 s after Stop was pressed. */
export const STOP_FLAG_RESET_MS = 3000;

export interface StopFlag {
  isSet: () => boolean;
  /** Sets the flag (restarting its 3 s timer); answers whether it was already set (→ force). */
  set: () => boolean;
  clear: () => void;
  subscribe: (listener: () => void) => () => void;
  dispose: () => void;
}

export interface StopFlagOptions {
  resetAfterMs?: number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/**
 * docs/PRODUCT.md#stopping-a-run: the flag is set when Stop is pressed and cleared after 3 s or on the server's
 * acknowledgement; Stop pressed while it is set is sent with force.
 */
export function createStopFlag(options: StopFlagOptions = {}): StopFlag {
  const resetAfterMs = options.resetAfterMs ?? STOP_FLAG_RESET_MS;
  const setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
  const clearTimer =
    options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let flag = false;
  let timer: unknown = null;
  const listeners = new Set<() => void>();

  const notify = () => {
    for (const listener of listeners) listener();
  };
  const cancelTimer = () => {
    if (timer !== null) clearTimer(timer);
    timer = null;
  };

  const clear = () => {
    cancelTimer();
    if (!flag) return;
    flag = false;
    notify();
  };

  return {
    isSet: () => flag,
    set: () => {
      const wasSet = flag;
      cancelTimer();
      timer = setTimer(() => {
        timer = null;
        clear();
      }, resetAfterMs);
      if (!wasSet) {
        flag = true;
        notify();
      }
      return wasSet;
    },
    clear,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose: () => {
      cancelTimer();
      listeners.clear();
    },
  };
}

/** A unique id for one stop request. */
export function newStopId(now: number = Date.now(), random: () => number = Math.random): string {
  return `stop_${now}_${random().toString(36).slice(2, 10)}`;
}
