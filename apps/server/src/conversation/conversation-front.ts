import type { ClientMessageOf } from '@argus/protocol';
import type { Send } from '../realtime/user-channel';

/**
 * Conversational mode as the socket handlers call it: this process's own ConversationService, or with
 * REDIS_URL in a web process, live browsers held by workers (scale/queued-conversations.ts).
 */
export interface ConversationFront {
  start(userId: string, data: ClientMessageOf<'start_conversation'>['data'], send: Send): Promise<void>;
  message(
    userId: string,
    data: ClientMessageOf<'conversation_message'>['data'],
    send: Send,
  ): { done: Promise<void> };
  input(userId: string, data: ClientMessageOf<'browser_input'>['data']): Promise<void>;
  stop(userId: string, sessionId: string | null, send: Send): Promise<void>;
  cleanupOrphans(userId: string, send: Send): Promise<number>;
}
