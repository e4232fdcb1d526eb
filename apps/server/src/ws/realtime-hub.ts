import {
  FeatureSchema,
  SERVER_MESSAGE_FEATURE,
  type ServerMessage,
  type ServerMessageInput,
  ServerMessageSchema,
} from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';

/** Every authenticated socket, by user: one user may have several tabs open. */
export class RealtimeHub {
  private readonly byUser = new Map<string, Set<WebSocket>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  add(userId: string, socket: WebSocket): void {
    let set = this.byUser.get(userId);
    if (!set) {
      set = new Set();
      this.byUser.set(userId, set);
    }
    set.add(socket);
  }

  remove(userId: string, socket: WebSocket): void {
    const set = this.byUser.get(userId);
    if (!set) return;
    set.delete(socket);
    if (set.size === 0) this.byUser.delete(userId);
  }

  connectionCount(userId?: string): number {
    if (userId) return this.byUser.get(userId)?.size ?? 0;
    let total = 0;
    for (const set of this.byUser.values()) total += set.size;
    return total;
  }

  /**
   * Validates against the shared protocol before anything leaves the server: a malformed message is
   * a bug here, logged, and replaced by an `error` the client can show.
   */
  encode(message: ServerMessageInput): string {
    const parsed = ServerMessageSchema.safeParse(message);
    if (parsed.success) return JSON.stringify(parsed.data satisfies ServerMessage);
    this.log.error(
      { type: message.type, issues: parsed.error.issues },
      'refused to send an invalid server message',
    );
    // Still addressed to the session and request it was about, so the right screen learns of it.
    const feature = FeatureSchema.catch('connection').parse(
      message.type === 'error' ? message.data?.feature : SERVER_MESSAGE_FEATURE[message.type],
    );
    return JSON.stringify({
      type: 'error',
      session_id: typeof message.session_id === 'string' ? message.session_id : null,
      ...(typeof message.request_id === 'string' ? { request_id: message.request_id } : {}),
      data: { message: 'Internal server error', code: 'INTERNAL', feature },
    } satisfies ServerMessage);
  }

  send(socket: WebSocket, message: ServerMessageInput): void {
    if (socket.readyState === socket.OPEN) socket.send(this.encode(message));
  }

  /** To every open socket of one user. */
  sendToUser(userId: string, message: ServerMessageInput): void {
    const set = this.byUser.get(userId);
    if (!set?.size) return;
    const frame = this.encode(message);
    for (const socket of set) if (socket.readyState === socket.OPEN) socket.send(frame);
  }
}
