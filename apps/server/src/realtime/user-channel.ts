import type { ServerMessageInput } from '@argus/protocol';

/**
 * How the feature services (automation, conversation, comparison) reach a user's open sockets. The
 * socket layer implements it (ws/realtime-hub.ts); the services depend on this interface only, so a
 * service never imports `ws/` and can be driven by any sender in a test (docs/ARCHITECTURE.md).
 */
export type Send = (message: ServerMessageInput) => void;

/**
 * A `Send` that reaches every socket of one user (a socket handler's `broadcast`). Work queued for a
 * worker process (scale/queued-automation.ts) then sends to the user from there, through Redis, and
 * reaches their sockets on every web process rather than only this one's.
 */
export type UserBroadcast = Send & {
  readonly broadcastTo: string;
  /** The `request_id` of the message being handled, echoed on what the work says (also from a worker). */
  readonly requestId?: string;
};

export function userBroadcast(userId: string, send: Send, requestId?: string): UserBroadcast {
  return Object.assign((message: ServerMessageInput) => send(message), {
    broadcastTo: userId,
    ...(requestId ? { requestId } : {}),
  });
}

/** `send`, echoing `requestId` on every message that carries none (as a socket handler's answers do). */
export function echoing(send: Send, requestId: string | undefined): Send {
  if (!requestId) return send;
  return (message) =>
    send(message.request_id === undefined ? { ...message, request_id: requestId } : message);
}

export function isUserBroadcast(send: Send): send is UserBroadcast {
  return typeof (send as Partial<UserBroadcast>).broadcastTo === 'string';
}

export interface UserChannel {
  /** Every open socket of the user. */
  sendToUser(userId: string, message: ServerMessageInput): void;
  /** A video frame to every socket of the user that watches `sessionId`; never queued (latest wins). */
  sendFrame(userId: string, sessionId: string, data: { frame: string; timestamp: string | number }): void;
  /** Open sockets of the user (of every user without one). */
  connectionCount(userId?: string): number;
}

/** A server message before it is addressed: whoever sends it says which session it concerns. */
export type Unaddressed = ServerMessageInput extends infer M
  ? M extends unknown
    ? Omit<M, 'session_id' | 'request_id'>
    : never
  : never;

/** `send`, addressing every message to `sessionId` (and to the request it answers, if any). */
export function addressed(
  send: Send,
  sessionId: string | null,
  requestId?: string,
): (message: Unaddressed) => void {
  return (message) =>
    send({
      ...message,
      session_id: sessionId,
      ...(requestId ? { request_id: requestId } : {}),
    } as ServerMessageInput);
}
