import type { ConversationFront } from '../../conversation/conversation-front';
import type { MessageHandlers } from '../message-handlers';

/**
 * Socket handlers of the conversational screen (and of the `/cleanup` beacon, which dispatches to
 * the same ones as the beacon's user). Long work is not awaited: a start returns once its checks
 * pass (the browser opens in the background), a chat turn runs in the background, so a stop gets
 * through at once. Everything they send reaches every socket of the user, addressed to the session.
 */
export function conversationHandlers(conversations: ConversationFront): MessageHandlers {
  return {
    start_conversation: (message, { user, broadcast }) =>
      conversations.start(user.id, message.data, broadcast),
    conversation_message: (message, { user, broadcast }) => {
      const { done } = conversations.message(user.id, message.data, broadcast);
      done.catch(() => undefined);
    },
    browser_input: (message, { user }) => conversations.input(user.id, message.data),
    stop_conversation: (message, { user, broadcast }) =>
      conversations.stop(user.id, message.data.session_id ?? null, broadcast),
    cleanup_orphaned_sessions: async (_message, { user, broadcast }) => {
      await conversations.cleanupOrphans(user.id, broadcast);
    },
  };
}
