import {
  FeatureSchema,
  SERVER_MESSAGE_FEATURE,
  type ServerMessage,
  type ServerMessageInput,
  ServerMessageSchema,
  WS_CLOSE_REASONS,
} from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { UserChannel } from '../realtime/user-channel';

/**
 * A video frame goes out at once only while its socket's send buffer (ws `bufferedAmount`) holds at
 * most this many bytes; otherwise it waits, and a later frame of the same session replaces it.
 */
export const FRAME_BUFFER_LIMIT_BYTES = 64 * 1024;
/** What a socket's send buffer may hold before the socket is closed as not reading (WS_MAX_BUFFERED_BYTES). */
export const DEFAULT_SEND_LIMIT_BYTES = 32 * 1024 * 1024;
/** How often a socket with frames waiting is looked at again. */
const FRAME_RETRY_MS = 20;

/** The frames waiting for one socket: at most one per session, the latest. */
interface FrameQueue {
  pending: Map<string, string>;
  timer: ReturnType<typeof setTimeout> | null;
}

export interface FrameStats {
  /** Frames handed to a socket. */
  sent: number;
  /** Frames that waited and were replaced by a later frame of the same session, never sent. */
  replaced: number;
  /** Frames dropped because their socket closed while they waited. */
  dropped: number;
  /** Frames waiting now, over every socket and session. */
  pending: number;
}

/** Every authenticated socket, by user: one user may have several tabs open. */
export class RealtimeHub implements UserChannel {
  private readonly byUser = new Map<string, Set<WebSocket>>();
  private readonly frames = new Map<WebSocket, FrameQueue>();
  private readonly orgOf = new WeakMap<WebSocket, string>();
  private readonly counts = { sent: 0, replaced: 0, dropped: 0 };
  private sendLimit = DEFAULT_SEND_LIMIT_BYTES;

  /** Called when a socket opens or closes (a web process with workers says so at once: scale/presence.ts). */
  onPresenceChange: (() => void) | null = null;

  constructor(private readonly log: FastifyBaseLogger) {}

  /** WS_MAX_BUFFERED_BYTES: a socket whose send buffer grows past it is closed (see `deliver`). */
  setSendLimit(bytes: number): void {
    this.sendLimit = bytes;
  }

  /** `orgId`: the organization the socket acts in (its user's personal one unless it named another). */
  add(userId: string, socket: WebSocket, orgId: string = userId): void {
    this.orgOf.set(socket, orgId);
    let set = this.byUser.get(userId);
    if (!set) {
      set = new Set();
      this.byUser.set(userId, set);
    }
    set.add(socket);
    this.onPresenceChange?.();
  }

  remove(userId: string, socket: WebSocket): void {
    this.dropFrames(socket);
    const set = this.byUser.get(userId);
    if (!set) return;
    set.delete(socket);
    if (set.size === 0) this.byUser.delete(userId);
    this.onPresenceChange?.();
  }

  /**
   * Closes the user's sockets acting in `orgId` (a member removed): the client reconnects, and its
   * socket then acts in their personal organization.
   */
  closeMember(orgId: string, userId: string): void {
    for (const socket of this.byUser.get(userId) ?? []) {
      if (this.orgOf.get(socket) !== orgId) continue;
      const { code, reason } = WS_CLOSE_REASONS.memberRemoved;
      socket.close(code, reason);
    }
  }

  /** Open sockets per user with any (web processes tell workers: scale/presence.ts). */
  socketsPerUser(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const [userId, set] of this.byUser) if (set.size > 0) counts[userId] = set.size;
    return counts;
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
    if (socket.readyState === socket.OPEN) this.deliver(socket, this.encode(message));
  }

  /** To every open socket of one user. */
  sendToUser(userId: string, message: ServerMessageInput): void {
    const set = this.byUser.get(userId);
    if (!set?.size) return;
    const frame = this.encode(message);
    for (const socket of set) if (socket.readyState === socket.OPEN) this.deliver(socket, frame);
  }

  /**
   * Messages other than frames are never dropped, so a client that stops reading would make them pile
   * up without end: once its send buffer holds more than the limit, the socket is closed (1008, the
   * reason naming WS_MAX_BUFFERED_BYTES) and what it held is freed when ws gives up on it.
   */
  private deliver(socket: WebSocket, text: string): void {
    socket.send(text);
    if (socket.bufferedAmount > this.sendLimit) {
      this.log.warn({ buffered: socket.bufferedAmount }, 'closing a socket that does not read');
      const { code, reason } = WS_CLOSE_REASONS.slowReader;
      socket.close(code, reason);
    }
  }

  /**
   * A live browser's frame, to every open socket of the user, without ever queueing frames behind a
   * slow reader: a socket whose send buffer holds more than FRAME_BUFFER_LIMIT_BYTES keeps at most
   * one frame waiting per session (a newer frame replaces it: latest wins) and gets it once the
   * buffer has drained. Other messages are never dropped; they go through `send`/`sendToUser`.
   */
  sendFrame(userId: string, sessionId: string, data: { frame: string; timestamp: string | number }): void {
    const set = this.byUser.get(userId);
    if (!set?.size) return;
    const frame = this.encode({ type: 'video_frame', session_id: sessionId, data });
    for (const socket of set) {
      if (socket.readyState !== socket.OPEN) continue;
      let queue = this.frames.get(socket);
      if (!queue) {
        queue = { pending: new Map(), timer: null };
        this.frames.set(socket, queue);
      }
      if (queue.pending.has(sessionId)) this.counts.replaced++;
      queue.pending.set(sessionId, frame);
      this.flushFrames(socket, queue);
    }
  }

  /** Counters of `sendFrame`, for tests and diagnostics. */
  frameStats(): FrameStats {
    let pending = 0;
    for (const queue of this.frames.values()) pending += queue.pending.size;
    return { ...this.counts, pending };
  }

  /** Sends what waits while the socket's buffer has room; looks again shortly if something still waits. */
  private flushFrames(socket: WebSocket, queue: FrameQueue): void {
    if (socket.readyState !== socket.OPEN) {
      this.dropFrames(socket);
      return;
    }
    for (const [sessionId, frame] of queue.pending) {
      if (socket.bufferedAmount > FRAME_BUFFER_LIMIT_BYTES) break;
      queue.pending.delete(sessionId);
      socket.send(frame);
      this.counts.sent++;
    }
    if (queue.pending.size === 0) {
      if (queue.timer) clearTimeout(queue.timer);
      this.frames.delete(socket);
      return;
    }
    if (!queue.timer) {
      queue.timer = setTimeout(() => {
        queue.timer = null;
        this.flushFrames(socket, queue);
      }, FRAME_RETRY_MS);
      queue.timer.unref();
    }
  }

  private dropFrames(socket: WebSocket): void {
    const queue = this.frames.get(socket);
    if (!queue) return;
    if (queue.timer) clearTimeout(queue.timer);
    this.counts.dropped += queue.pending.size;
    this.frames.delete(socket);
  }
}
