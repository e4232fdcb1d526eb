import type { WebSocket } from 'ws';

/**
 * Messages a second with a burst: `take` spends one token, tokens come back at `perSecond` up to
 * `burst`. The clock is injectable so the rule can be tested without waiting.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  take(): boolean {
    const at = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((at - this.last) / 1000) * this.perSecond);
    this.last = at;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** Refusals counted over a window: more than `limit` within `windowMs` and the sender is cut off. */
export class RefusalCounter {
  private count = 0;
  private since: number;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.since = now();
  }

  /** Counts one refusal; true once the window holds more than the limit. */
  add(): boolean {
    const at = this.now();
    if (at - this.since > this.windowMs) {
      this.count = 0;
      this.since = at;
    }
    this.count += 1;
    return this.count > this.limit;
  }
}

/** How many sockets each key (a user, a client address) holds open. */
export class SocketCounts {
  private readonly counts = new Map<string, number>();

  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  add(key: string): void {
    this.counts.set(key, this.get(key) + 1);
  }

  remove(key: string): void {
    const left = this.get(key) - 1;
    if (left > 0) this.counts.set(key, left);
    else this.counts.delete(key);
  }
}

/**
 * After a close for a frame over the limit, ws keeps reading what the peer sends and drops it, until
 * the peer closes or ws gives up on it (30 s): the rest of a 10 MB frame would be read for nothing.
 * The socket stops reading instead (after ws has set it flowing, on the next tick): the close frame
 * still goes out, the peer's further bytes stay in the kernel, and ws ends the socket on its timer.
 */
export function stopReading(socket: WebSocket): void {
  const raw = (socket as unknown as { _socket?: { pause?: () => void } })._socket;
  setImmediate(() => raw?.pause?.());
}

/** The part of ws's frame reader this module relies on (ws 8: `WebSocket#_receiver`). */
interface FrameReader {
  _maxPayload: number;
  prependListener(event: 'error', listener: (error: Error & { code?: string }) => void): unknown;
}

function readerOf(socket: WebSocket): FrameReader | null {
  const reader = (socket as unknown as { _receiver?: Partial<FrameReader> })._receiver;
  if (!reader || typeof reader._maxPayload !== 'number' || typeof reader.prependListener !== 'function')
    return null;
  return reader as FrameReader;
}

/**
 * A per-socket message size limit. ws takes `maxPayload` once per server, but an unauthenticated
 * socket must not be able to make the server read 16 MiB: ws's reader compares each frame's declared
 * length with its `_maxPayload` as the frame header arrives, before any of the payload is kept, so
 * lowering it on one socket refuses a large frame there at once (ws then stops reading the socket
 * and closes it with 1009). `onTooLarge` runs first, so the close can carry our reason instead.
 * Returns false when this version of ws has no such reader (the server-wide limit still holds).
 */
export function limitPayload(socket: WebSocket, bytes: number, onTooLarge?: () => void): boolean {
  const reader = readerOf(socket);
  if (!reader) return false;
  reader._maxPayload = bytes;
  if (onTooLarge) {
    reader.prependListener('error', (error) => {
      if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') onTooLarge();
    });
  }
  return true;
}
