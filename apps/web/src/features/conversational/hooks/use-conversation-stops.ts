import { useCallback, useEffect } from 'react';
import toast from 'react-hot-toast';
import { STOP_CONFIRM_TIMEOUT_MS } from '../model/stop-guard';
import { CONVERSATIONAL_TEXTS } from '../model/texts';
import type { ConversationalCore, StopReason } from './conversational-core';

/** The success texts' durations (docs/PRODUCT.md#toasts). */
const STOPPING_TOAST_MS = 2000;

/**
 * The stops (docs/PRODUCT.md#stopping-a-conversation): Stop, ignored while one is in progress or the
 * page unloads, and the automatic stops on unload, page hide, back/forward and unmount (once per
 * clean-up, with the unload prompt and the beacon). Each is kept with the session as cancelled.
 */
export function useConversationStops(core: ConversationalCore) {
  const { latest } = core;
  const markCancelled = useCallback(
    (sessionId: string, reason: StopReason) => {
      latest.current.sessions
        .updateSession(sessionId, {
          status: 'cancelled',
          metadata: { stopped_at: new Date().toISOString(), stop_reason: reason },
        })
        .catch(() => {});
    },
    [latest],
  );
  const stop = useStop(core, markCancelled);
  const cleanup = useCleanup(core, markCancelled);
  usePageLeaveStops(core, cleanup);
  return { stop };
}

type MarkCancelled = (sessionId: string, reason: StopReason) => void;

/** docs/PRODUCT.md#stopping-a-conversation: Stop (the red dot). Ignored while a stop is in progress or the page unloads. */
function useStop(
  { store, guard, latest, video, stopTimer }: ConversationalCore,
  markCancelled: MarkCancelled,
) {
  const { clearFrames } = video;
  const clearStopTimer = stopTimer.clear;
  return useCallback(() => {
    const current = store.getState();
    if (!current.active || !current.sessionId) return;
    if (!guard.tryBegin()) return;
    const sessionId = current.sessionId;
    store.dispatch({ type: 'stop_requested' });
    clearFrames();
    toast(CONVERSATIONAL_TEXTS.stopping, { id: 'conversation-stopping', duration: STOPPING_TOAST_MS });
    markCancelled(sessionId, 'user_stopped');
    try {
      latest.current.realtime.send({
        type: 'stop_conversation',
        data: { session_id: sessionId, reason: 'user_stopped', timestamp: new Date().toISOString() },
      });
    } catch {
      guard.end();
      store.dispatch({ type: 'stop_failed' });
      toast.error(CONVERSATIONAL_TEXTS.stopFailed);
      return;
    }
    clearStopTimer();
    stopTimer.ref.current = setTimeout(() => {
      stopTimer.ref.current = null;
      if (store.getState().stopping) store.dispatch({ type: 'stop_timeout' });
      guard.end();
    }, STOP_CONFIRM_TIMEOUT_MS);
  }, [store, guard, clearFrames, markCancelled, clearStopTimer, latest, stopTimer.ref]);
}

/** The automatic stops: once per clean-up of a session; on unload also by beacon. */
function useCleanup({ store, guard, latest }: ConversationalCore, markCancelled: MarkCancelled) {
  return useCallback(
    (reason: StopReason, beacon: boolean) => {
      const current = store.getState();
      if (!current.active || !current.sessionId) return;
      if (!guard.claimCleanup(current.sessionId)) return;
      const sessionId = current.sessionId;
      try {
        latest.current.realtime.send({
          type: 'stop_conversation',
          data: { session_id: sessionId, reason, forced_cleanup: true, timestamp: new Date().toISOString() },
        });
      } catch {
        // The beacon (on unload) or the server's own clean-up of orphans takes over.
      }
      if (beacon) latest.current.sendUnloadBeacon(sessionId);
      markCancelled(sessionId, reason);
    },
    [store, guard, markCancelled, latest],
  );
}

/** Leaving the page: the unload prompt while active, and the clean-up on page hide, back/forward and unmount. */
function usePageLeaveStops(
  { store, guard, stopTimer }: ConversationalCore,
  cleanup: (reason: StopReason, beacon: boolean) => void,
) {
  const clearStopTimer = stopTimer.clear;
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!store.getState().active) return;
      event.preventDefault();
      event.returnValue = CONVERSATIONAL_TEXTS.unloadPrompt;
      return CONVERSATIONAL_TEXTS.unloadPrompt;
    };
    const onPageHide = () => {
      guard.setUnloading(true);
      cleanup('page_unload', true);
    };
    const onPageShow = () => guard.setUnloading(false);
    const onPopState = () => cleanup('navigation', false);
    window.addEventListener('beforeunload', onBeforeUnload);
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('pageshow', onPageShow);
    window.addEventListener('popstate', onPopState);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
      window.removeEventListener('popstate', onPopState);
      cleanup('component_unmount', false);
      clearStopTimer();
    };
  }, [store, guard, cleanup, clearStopTimer]);
}
