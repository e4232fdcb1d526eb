import { useCallback, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { createConversationalStore } from '../model/conversation-state';
import { createStopGuard } from '../model/stop-guard';
import type { ConversationalScreenProps } from '../types';
import type { ConversationalCore, LatestInputs } from './conversational-core';
import { useConversationMessages, useConversationSocket } from './use-conversation-socket';
import { useConversationStart } from './use-conversation-start';
import { useConversationStops } from './use-conversation-stops';
import { useConversationVideo, useFpsTicks } from './use-conversation-video';
import { useTakeoverActions } from './use-takeover-actions';

export type { StopReason } from './conversational-core';

/**
 * The conversational screen's behaviour (docs/PRODUCT.md#conversational-mode): start (a session, then start_conversation), chat
 * (starting first when inactive, 1 s before the first message), the live video (latest 10 frames, fps
 * every second, stalled after 3 s), stops (ignored while one is in progress or the page unloads), the
 * automatic stops on unload, page hide, back/forward and unmount (once per clean-up, with the unload
 * prompt and the beacon), the orphan clean-up on socket open, server errors as toasts and system
 * messages, and takeover input. Each job is a hook of its own (use-conversation-*.ts,
 * use-takeover-actions.ts) over one core (conversational-core.ts); this one wires them, in the order
 * their effects run.
 */
export function useConversational({ user, realtime, sessions, sendUnloadBeacon }: ConversationalScreenProps) {
  const store = useMemo(() => createConversationalStore(), []);
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  const guard = useMemo(() => createStopGuard(), []);
  const video = useConversationVideo();
  const [urlInput, setUrlInput] = useState('');

  // Handlers registered once read the latest inputs through this ref.
  const latest = useRef<LatestInputs>({ user, realtime, sessions, sendUnloadBeacon, urlInput });
  latest.current = { user, realtime, sessions, sendUnloadBeacon, urlInput };

  const seq = useRef(0);
  const nextId = useCallback((prefix: string) => {
    seq.current += 1;
    return `${prefix}-${Date.now().toString(36)}-${seq.current}`;
  }, []);

  const stopTimerRef = useRef<ReturnType<typeof setTimeout> | null>(null);
  const clearStopTimer = useCallback(() => {
    if (stopTimerRef.current !== null) clearTimeout(stopTimerRef.current);
    stopTimerRef.current = null;
  }, []);
  const stopTimer = useMemo(() => ({ ref: stopTimerRef, clear: clearStopTimer }), [clearStopTimer]);

  const core: ConversationalCore = { store, guard, latest, nextId, video, stopTimer };
  const isConnected = realtime.isConnected;
  useConversationMessages(core, realtime.client);
  useFpsTicks(state.active, video);
  useConversationSocket(core, isConnected);
  const { starting, conversationId, start, sendMessage } = useConversationStart(core);
  const { stop } = useConversationStops(core);

  return {
    state,
    urlInput,
    setUrlInput,
    starting,
    fps: video.fps,
    streaming: video.streaming,
    conversationId,
    isConnected,
    start,
    sendMessage,
    stop,
    ...useTakeoverActions(core, sendMessage),
    subscribeFrames: video.subscribeFrames,
  };
}

export type ConversationalController = ReturnType<typeof useConversational>;
