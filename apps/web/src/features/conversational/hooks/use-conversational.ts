import type { ServerMessage } from '@argus/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import toast from 'react-hot-toast';
import { createConversation } from '../api/create-conversation';
import { CONVERSATIONS_QUERY_KEY } from '../api/list-conversations';
import { prepareMessage } from '../model/chat-input';
import { concernsConversation, createConversationalStore } from '../model/conversation-state';
import { normalizeStartUrl } from '../model/start-url';
import { AUTO_START_WAIT_MS, createStopGuard, STOP_CONFIRM_TIMEOUT_MS } from '../model/stop-guard';
import type { TakeoverInput } from '../model/takeover';
import { CANVAS_SIZE } from '../model/takeover';
import { CONVERSATIONAL_TEXTS, SESSION_NAME } from '../model/texts';
import { FPS_INTERVAL_MS, FpsMeter, FrameBuffer, type VideoFrame } from '../model/video';
import type { ConversationalScreenProps } from '../types';

/** Why a session stopped (sent with stop_conversation and kept with the session). */
export type StopReason = 'user_stopped' | 'page_unload' | 'page_hide' | 'navigation' | 'component_unmount';

/** The success texts' durations (docs/PRODUCT.md#toasts). */
const STOPPING_TOAST_MS = 2000;

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The conversational screen's behaviour (docs/PRODUCT.md#conversational-mode): start (a session, then start_conversation), chat
 * (starting first when inactive, 1 s before the first message), the live video (latest 10 frames, fps
 * every second, stalled after 3 s), stops (ignored while one is in progress or the page unloads), the
 * automatic stops on unload, page hide, back/forward and unmount (once per clean-up, with the unload
 * prompt and the beacon), the orphan clean-up on socket open, server errors as toasts and system
 * messages, and takeover input.
 */
export function useConversational({ user, realtime, sessions, sendUnloadBeacon }: ConversationalScreenProps) {
  const store = useMemo(() => createConversationalStore(), []);
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  const guard = useMemo(() => createStopGuard(), []);
  const frames = useMemo(() => new FrameBuffer(), []);
  const meter = useMemo(() => new FpsMeter(Date.now()), []);
  const queryClient = useQueryClient();

  const [urlInput, setUrlInput] = useState('');
  const [starting, setStarting] = useState(false);
  const [fps, setFps] = useState(0);
  const [streaming, setStreaming] = useState(false);
  const [conversationId, setConversationId] = useState<string | null>(null);

  const latest = useRef({ user, realtime, sessions, sendUnloadBeacon, urlInput });
  latest.current = { user, realtime, sessions, sendUnloadBeacon, urlInput };

  const seq = useRef(0);
  const nextId = useCallback((prefix: string) => {
    seq.current += 1;
    return `${prefix}-${Date.now().toString(36)}-${seq.current}`;
  }, []);

  // ---- frames: kept outside React state, drawn by the canvas as they come ------------------------
  const frameListeners = useRef(new Set<(frame: VideoFrame | null) => void>());
  const emitFrame = useCallback((frame: VideoFrame | null) => {
    for (const listener of frameListeners.current) listener(frame);
  }, []);
  const subscribeFrames = useCallback(
    (listener: (frame: VideoFrame | null) => void) => {
      frameListeners.current.add(listener);
      listener(frames.latest);
      return () => {
        frameListeners.current.delete(listener);
      };
    },
    [frames],
  );
  const clearFrames = useCallback(() => {
    frames.clear();
    meter.reset(Date.now());
    setFps(0);
    setStreaming(false);
    emitFrame(null);
  }, [frames, meter, emitFrame]);

  const stopTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const clearStopTimer = useCallback(() => {
    if (stopTimer.current !== null) clearTimeout(stopTimer.current);
    stopTimer.current = null;
  }, []);

  // ---- server messages -------------------------------------------------------------------------
  useEffect(
    () =>
      realtime.client.onMessage((message: ServerMessage) => {
        const before = store.getState();
        if (!concernsConversation(before, message)) return;
        if (message.type === 'video_frame') {
          if (!before.active || before.stopping) return;
          const frame = frames.push(message.data.frame, message.data.timestamp);
          meter.frame(Date.now());
          emitFrame(frame);
          if (before.browserStatus !== 'ready') store.dispatch({ type: 'server', message, id: frame.id });
          return;
        }
        const after = store.dispatch({ type: 'server', message, id: nextId('server') });
        if (message.type === 'error' && !guard.isUnloading()) {
          toast.error(message.data.message?.trim() || CONVERSATIONAL_TEXTS.unknownError);
        }
        if (message.type === 'browser_status' && message.data.status === 'error' && !guard.isUnloading()) {
          toast.error(CONVERSATIONAL_TEXTS.browserError, { id: 'browser-error' });
        }
        if (before.active && !after.active) {
          // Stopped (confirmed, by the server, or by an error about stopping).
          clearStopTimer();
          guard.end();
          clearFrames();
        }
      }),
    [realtime.client, store, frames, meter, emitFrame, nextId, guard, clearFrames, clearStopTimer],
  );

  // ---- fps, recomputed every second; the stream is stopped after 3 s without frames -------------
  useEffect(() => {
    if (!state.active) return;
    const timer = setInterval(() => {
      const now = Date.now();
      setFps(meter.tick(now));
      setStreaming(!meter.isStalled(now));
    }, FPS_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [state.active, meter]);

  // ---- the socket: orphan clean-up on open, typing ends on close -------------------------------
  const isConnected = realtime.isConnected;
  useEffect(() => {
    if (!isConnected) {
      store.dispatch({ type: 'socket_closed' });
      return;
    }
    // docs/PRODUCT.md#starting-a-conversation: on socket open the server is asked to clean up the user's orphaned sessions; not while
    // this screen has a session of its own running (a reconnect), which would stop it.
    if (store.getState().active) return;
    try {
      latest.current.realtime.send({
        type: 'cleanup_orphaned_sessions',
        data: { user_id: latest.current.user?.id, timestamp: new Date().toISOString() },
      });
    } catch {
      // Closed again in between: asked on the next open.
    }
  }, [isConnected, store]);

  // ---- start -----------------------------------------------------------------------------------
  const startingRef = useRef(false);
  const start = useCallback(async (): Promise<boolean> => {
    if (store.getState().active) return true;
    if (startingRef.current || guard.isUnloading()) return false;
    const { realtime: socket, sessions: store_, urlInput: typed } = latest.current;
    if (!socket.isConnected) {
      toast.error(CONVERSATIONAL_TEXTS.connectionLost, { id: 'connection-lost' });
      return false;
    }
    const url = normalizeStartUrl(typed);
    if (!url) {
      toast.error('Please enter a valid URL (including http:// or https://)');
      return false;
    }
    startingRef.current = true;
    setStarting(true);
    try {
      let sessionId: string;
      try {
        const created = await store_.createSession({
          type: 'conversational',
          title: SESSION_NAME,
          name: SESSION_NAME,
          url,
          description: `Video browsing: ${hostOf(url)}`,
          metadata: { url, video_streaming: true },
        });
        sessionId = created.id;
      } catch {
        toast.error(CONVERSATIONAL_TEXTS.startFailed);
        return false;
      }
      clearFrames();
      setConversationId(null);
      store.dispatch({ type: 'start_requested', sessionId, url, at: new Date().toISOString() });
      // The conversation's record (its history) first: the server stores each turn in the session's
      // conversation, and finds this one rather than making its own.
      const conversation = await createConversation({
        session_id: sessionId,
        title: `${SESSION_NAME}: ${url ? hostOf(url) : 'start page'}`,
        url: url || null,
      }).catch((error: unknown) => {
        console.warn('The conversation could not be recorded', error);
        return null;
      });
      if (conversation && store.getState().sessionId === sessionId) setConversationId(conversation.id);
      void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_QUERY_KEY });
      try {
        latest.current.realtime.send({
          type: 'start_conversation',
          data: { session_id: sessionId, url, video_streaming: true },
        });
      } catch {
        store.dispatch({ type: 'start_failed' });
        toast.error(CONVERSATIONAL_TEXTS.startFailed);
        return false;
      }
      return true;
    } finally {
      startingRef.current = false;
      setStarting(false);
    }
  }, [store, guard, clearFrames, queryClient]);

  // ---- chat ------------------------------------------------------------------------------------
  const sendMessage = useCallback(
    async (text: string): Promise<boolean> => {
      const message = prepareMessage(text);
      if (!message) return false;
      const before = store.getState();
      if (before.typing || before.stopping || startingRef.current) return false;
      if (!latest.current.realtime.isConnected) {
        toast.error(CONVERSATIONAL_TEXTS.connectionLost, { id: 'connection-lost' });
        return false;
      }
      if (!before.active) {
        // docs/PRODUCT.md#starting-a-conversation: a message while inactive starts a session, waits 1 s, then is sent.
        if (!(await start())) return false;
        setStarting(true);
        await sleep(AUTO_START_WAIT_MS);
        setStarting(false);
      }
      const now = store.getState();
      if (!now.active || !now.sessionId || now.stopping) return false;
      const id = nextId('user');
      store.dispatch({ type: 'user_message', id, content: message, at: new Date().toISOString() });
      try {
        latest.current.realtime.send({
          type: 'conversation_message',
          data: { message, session_id: now.sessionId, current_url: now.currentUrl || null },
        });
        return true;
      } catch {
        store.dispatch({ type: 'send_failed', id });
        toast.error(CONVERSATIONAL_TEXTS.sendFailed);
        return false;
      }
    },
    [store, start, nextId],
  );

  // ---- stops -----------------------------------------------------------------------------------
  const markCancelled = useCallback((sessionId: string, reason: StopReason) => {
    latest.current.sessions
      .updateSession(sessionId, {
        status: 'cancelled',
        metadata: { stopped_at: new Date().toISOString(), stop_reason: reason },
      })
      .catch(() => {});
  }, []);

  /** docs/PRODUCT.md#stopping-a-conversation: Stop (the red dot). Ignored while a stop is in progress or the page unloads. */
  const stop = useCallback(() => {
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
    stopTimer.current = setTimeout(() => {
      stopTimer.current = null;
      if (store.getState().stopping) store.dispatch({ type: 'stop_timeout' });
      guard.end();
    }, STOP_CONFIRM_TIMEOUT_MS);
  }, [store, guard, clearFrames, markCancelled, clearStopTimer]);

  /** The automatic stops: once per clean-up of a session; on unload also by beacon. */
  const cleanup = useCallback(
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
    [store, guard, markCancelled],
  );

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

  // ---- takeover --------------------------------------------------------------------------------
  const sendInput = useCallback(
    (input: TakeoverInput) => {
      const current = store.getState();
      if (!current.active || !current.sessionId || current.stopping) return;
      try {
        latest.current.realtime.send({
          type: 'browser_input',
          data: { session_id: current.sessionId, canvas: { ...CANVAS_SIZE }, input },
        });
      } catch {
        // Disconnected: the banner says so.
      }
    },
    [store],
  );

  /** Reload: asked of the assistant in the chat ('reload' is a step both chat engines carry out). */
  const reload = useCallback(() => {
    const current = store.getState();
    if (!current.active || current.typing || current.stopping) return;
    void sendMessage('reload');
  }, [store, sendMessage]);

  const clearChat = useCallback(() => store.dispatch({ type: 'clear_chat' }), [store]);

  return {
    state,
    urlInput,
    setUrlInput,
    starting,
    fps,
    streaming,
    conversationId,
    isConnected,
    start,
    sendMessage,
    stop,
    reload,
    sendInput,
    subscribeFrames,
    clearChat,
  };
}

export type ConversationalController = ReturnType<typeof useConversational>;
