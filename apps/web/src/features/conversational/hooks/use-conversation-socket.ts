import type { ServerMessage } from '@argus/protocol';
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { concernsConversation } from '../model/conversation-state';
import { CONVERSATIONAL_TEXTS } from '../model/texts';
import type { ConversationalRealtime } from '../types';
import type { ConversationalCore } from './conversational-core';

/**
 * Server messages → state: video frames to the canvas, errors as toasts (not while the page
 * unloads), and the end of a session clears the stop timer, the guard and the frames.
 */
export function useConversationMessages(core: ConversationalCore, client: ConversationalRealtime['client']) {
  const { store, guard, nextId, video, stopTimer } = core;
  const { frames, meter, emitFrame, clearFrames } = video;
  const clearStopTimer = stopTimer.clear;
  useEffect(
    () =>
      client.onMessage((message: ServerMessage) => {
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
    [client, store, frames, meter, emitFrame, nextId, guard, clearFrames, clearStopTimer],
  );
}

/** The socket: the orphan clean-up asked on open, typing ended on close. */
export function useConversationSocket({ store, latest }: ConversationalCore, isConnected: boolean) {
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
  }, [isConnected, store, latest]);
}
