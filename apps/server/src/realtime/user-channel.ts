import type { ServerMessageInput } from '@argus/protocol';

/**
 * How the feature services (automation, conversation, comparison) reach a user's open sockets. The
 * socket layer implements it (ws/realtime-hub.ts); the services depend on this interface only, so a
 * service never imports `ws/` and can be driven by any sender in a test (docs/ARCHITECTURE.md).
 */
export type Send = (message: ServerMessageInput) => void;

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
