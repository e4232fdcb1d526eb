import { useCallback } from 'react';
import { CANVAS_SIZE, type TakeoverInput } from '../model/takeover';
import type { ConversationalCore } from './conversational-core';

/** Takeover input on the canvas, Reload (asked of the assistant) and Clear chat. */
export function useTakeoverActions(
  { store, latest }: ConversationalCore,
  sendMessage: (text: string) => Promise<boolean>,
) {
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
    [store, latest],
  );

  /** Reload: asked of the assistant in the chat ('reload' is a step both chat engines carry out). */
  const reload = useCallback(() => {
    const current = store.getState();
    if (!current.active || current.typing || current.stopping) return;
    void sendMessage('reload');
  }, [store, sendMessage]);

  const clearChat = useCallback(() => store.dispatch({ type: 'clear_chat' }), [store]);

  return { sendInput, reload, clearChat };
}
