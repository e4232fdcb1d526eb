import { automationReducer } from './automation-reducer';
import { type AutomationAction, type AutomationState, initialAutomationState } from './automation-state';

/** A tiny store, so a message handler always reads the state the last message left. */
export interface AutomationStore {
  getState: () => AutomationState;
  dispatch: (action: AutomationAction) => AutomationState;
  subscribe: (listener: () => void) => () => void;
  /** Drops a pending deferred notification (on unmount). */
  dispose: () => void;
}

export interface AutomationStoreOptions {
  /**
   * Server messages come in bursts (two tests' steps, each with a screenshot): listeners hear of them
   * at most once per this many milliseconds, so the screen redraws once per burst. The state itself
   * is always current. 0 (the default) notifies at once. The user's own actions always notify at once.
   */
  serverBatchMs?: number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export function createAutomationStore(
  initial: AutomationState = initialAutomationState,
  options: AutomationStoreOptions = {},
): AutomationStore {
  const batchMs = options.serverBatchMs ?? 0;
  const setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
  const clearTimer =
    options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let state = initial;
  let timer: unknown = null;
  const listeners = new Set<() => void>();

  const notify = () => {
    if (timer !== null) clearTimer(timer);
    timer = null;
    for (const listener of listeners) listener();
  };

  return {
    getState: () => state,
    dispatch: (action) => {
      const next = automationReducer(state, action);
      if (next === state) return state;
      state = next;
      if (action.type === 'server' && batchMs > 0) {
        timer ??= setTimer(notify, batchMs);
      } else {
        notify();
      }
      return state;
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose: () => {
      if (timer !== null) clearTimer(timer);
      timer = null;
    },
  };
}
