import type { UserRow } from '@argus/db';
import type { ClientMessage, ClientMessageOf, ClientMessageType, ServerMessageInput } from '@argus/protocol';

export interface MessageContext {
  user: UserRow;
  /** Answers on the socket the message came from (or, for a beacon, every socket of the user). */
  reply: (message: ServerMessageInput) => void;
  /** Reaches every open socket of the user. */
  broadcast: (message: ServerMessageInput) => void;
}

type Handler<T extends ClientMessageType> = (
  message: ClientMessageOf<T>,
  ctx: MessageContext,
) => Promise<void> | void;

/** One handler per client message type; the capabilities (automation, conversation, comparison) add theirs. */
export type MessageHandlers = { [T in Exclude<ClientMessageType, 'auth'>]?: Handler<T> };

/** What each capability is called in a refusal, so a client learns why its message did nothing. */
const CAPABILITY: Record<Exclude<ClientMessageType, 'auth'>, string> = {
  generate_test_cases: 'Automation',
  command_generate_test_cases: 'Automation',
  run_all_tests: 'Automation',
  run_single_test: 'Automation',
  stop_execution: 'Automation',
  cleanup_session: 'Automation',
  get_automation_status: 'Automation',
  start_conversation: 'Conversational mode',
  conversation_message: 'Conversational mode',
  stop_conversation: 'Conversational mode',
  cleanup_orphaned_sessions: 'Conversational mode',
  figma_website_comparison: 'Design comparison',
  upload_and_compare_image: 'Design comparison',
  stop_comparison: 'Design comparison',
  get_figma_help: 'Design comparison',
};

export function unavailableMessage(type: Exclude<ClientMessageType, 'auth'>): string {
  return `${CAPABILITY[type]} is not available on this server yet ('${type}' has no handler)`;
}

/** The handlers of this version of the platform: nothing holds a browser yet, so there is nothing to clean. */
export function foundationHandlers(): MessageHandlers {
  return {
    cleanup_orphaned_sessions: () => {},
  };
}

export async function dispatch(handlers: MessageHandlers, message: ClientMessage, ctx: MessageContext) {
  if (message.type === 'auth') return;
  const handler = handlers[message.type] as Handler<typeof message.type> | undefined;
  if (!handler) {
    ctx.reply({
      type: 'error',
      data: { message: unavailableMessage(message.type), code: 'NOT_IMPLEMENTED' },
    });
    return;
  }
  await handler(message as never, ctx);
}
