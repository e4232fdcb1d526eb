import type { UserRow } from '@argus/db';
import {
  CLIENT_MESSAGE_FEATURE,
  type ClientMessage,
  type ClientMessageOf,
  type ClientMessageType,
  type ErrorCode,
  type Feature,
  type ServerMessageInput,
  sessionIdOf,
} from '@argus/protocol';

import type { OrgContext } from '../orgs/org-context';
import { type Send, userBroadcast } from '../realtime/user-channel';

export interface MessageContext {
  user: UserRow;
  /** The organization the socket acts in, with the user's role there as of this message. */
  org: OrgContext;
  /** The feature the message belongs to: an error answering it says so. */
  feature: Feature;
  /** The session the message names (`data.session_id`), or null. */
  sessionId: string | null;
  /** The message's `request_id`: `reply` and `broadcast` echo it on what they send. */
  requestId?: string;
  /** Answers on the socket the message came from (or, for a beacon, every socket of the user). */
  reply: Send;
  /** Reaches every open socket of the user. */
  broadcast: Send;
}

/** An `error` about `ctx`'s message: its feature, its session. */
export function errorAbout(
  about: { feature: Feature; sessionId: string | null },
  message: string,
  code: ErrorCode,
): ServerMessageInput {
  return { type: 'error', session_id: about.sessionId, data: { message, code, feature: about.feature } };
}

/**
 * The context a handler gets for `message`: its feature and session, and senders that echo its
 * `request_id` on every message they send that does not carry one already.
 */
export function messageContext(
  user: UserRow,
  org: OrgContext,
  message: ClientMessage,
  send: { toSender: Send; toUser: Send },
): MessageContext {
  const requestId = message.request_id;
  const echo = (m: ServerMessageInput): ServerMessageInput =>
    requestId && m.request_id === undefined ? { ...m, request_id: requestId } : m;
  return {
    user,
    org,
    feature: CLIENT_MESSAGE_FEATURE[message.type],
    sessionId: sessionIdOf(message),
    ...(requestId ? { requestId } : {}),
    reply: (m) => send.toSender(echo(m)),
    broadcast: userBroadcast(user.id, (m) => send.toUser(echo(m)), requestId),
  };
}

type Handler<T extends ClientMessageType> = (
  message: ClientMessageOf<T>,
  ctx: MessageContext,
) => Promise<void> | void;

/** One handler per client message type; the capabilities (automation, conversation, comparison) add theirs. */
export type MessageHandlers = { [T in Exclude<ClientMessageType, 'auth'>]?: Handler<T> };

/** What each feature is called in a refusal, so a client learns why its message did nothing. */
const FEATURE_NAME: Record<Feature, string> = {
  automation: 'Automation',
  conversational: 'Conversational mode',
  design: 'Design comparison',
  connection: 'The connection',
};

export function unavailableMessage(type: Exclude<ClientMessageType, 'auth'>): string {
  return `${FEATURE_NAME[CLIENT_MESSAGE_FEATURE[type]]} is not available on this server yet ('${type}' has no handler)`;
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
    ctx.reply(errorAbout(ctx, unavailableMessage(message.type), 'NOT_IMPLEMENTED'));
    return;
  }
  await handler(message as never, ctx);
}
