import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { createConversation } from '../api/create-conversation';
import { CONVERSATIONS_QUERY_KEY } from '../api/list-conversations';
import { prepareMessage } from '../model/chat-input';
import { normalizeStartUrl } from '../model/start-url';
import { AUTO_START_WAIT_MS } from '../model/stop-guard';
import { CONVERSATIONAL_TEXTS, SESSION_NAME } from '../model/texts';
import { type ConversationalCore, hostOf } from './conversational-core';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Start (a session, its conversation record, then start_conversation) and chat (starting first when
 * inactive, 1 s before the first message), with the Starting… flag both show.
 */
export function useConversationStart(core: ConversationalCore) {
  const [starting, setStarting] = useState(false);
  const [conversationId, setConversationId] = useState<string | null>(null);
  const startingRef = useRef(false);
  const start = useStart(core, startingRef, setStarting, setConversationId);
  const sendMessage = useSendMessage(core, startingRef, setStarting, start);
  return { starting, conversationId, start, sendMessage };
}

type StartingRef = { current: boolean };

/** The session, then the conversation's record, then start_conversation; false when it did not start. */
function useStart(
  { store, guard, latest, video }: ConversationalCore,
  startingRef: StartingRef,
  setStarting: (starting: boolean) => void,
  setConversationId: (id: string | null) => void,
) {
  const queryClient = useQueryClient();
  const { clearFrames } = video;
  return useCallback(async (): Promise<boolean> => {
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
  }, [store, guard, clearFrames, queryClient, latest, startingRef, setStarting, setConversationId]);
}

/** A chat message: sent on the socket, after starting a session when none is active. */
function useSendMessage(
  { store, latest, nextId }: ConversationalCore,
  startingRef: StartingRef,
  setStarting: (starting: boolean) => void,
  start: () => Promise<boolean>,
) {
  return useCallback(
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
    [store, start, nextId, latest, startingRef, setStarting],
  );
}
