/** The live video (docs/PRODUCT.md#live-video). */
export const CANVAS_WIDTH = 854;
export const CANVAS_HEIGHT = 480;
/** Only the latest 10 frames are kept. */
export const MAX_FRAMES = 10;
/** The frame rate is recomputed every second. */
export const FPS_INTERVAL_MS = 1000;
/** Without a frame for 3 s the stream is treated as stopped. */
export const STREAM_STALL_MS = 3000;

/** A video frame (docs/PRODUCT.md#live-video). */
export interface VideoFrame {
  id: string;
  /** An image data URL. */
  frame: string;
  timestamp: string | number;
}

/** The latest frames of the stream (at most MAX_FRAMES, oldest first). */
export class FrameBuffer {
  private frames: VideoFrame[] = [];
  private seq = 0;

  constructor(private readonly max = MAX_FRAMES) {}

  push(frame: string, timestamp: string | number): VideoFrame {
    this.seq += 1;
    const item: VideoFrame = { id: `frame-${this.seq}`, frame, timestamp };
    this.frames.push(item);
    if (this.frames.length > this.max) this.frames.splice(0, this.frames.length - this.max);
    return item;
  }

  get latest(): VideoFrame | null {
    return this.frames[this.frames.length - 1] ?? null;
  }

  get size(): number {
    return this.frames.length;
  }

  all(): readonly VideoFrame[] {
    return this.frames;
  }

  clear(): void {
    this.frames = [];
  }
}

/**
 * Frames per second, recomputed once a second: `frame()` counts a frame, `tick(now)` (called every
 * second) closes the window and returns the rate over it.
 */
export class FpsMeter {
  private count = 0;
  private windowStart: number;
  private rate = 0;
  private lastFrameAt: number | null = null;

  constructor(now: number) {
    this.windowStart = now;
  }

  frame(now: number): void {
    this.count += 1;
    this.lastFrameAt = now;
  }

  tick(now: number): number {
    const elapsed = now - this.windowStart;
    this.rate = elapsed > 0 ? Math.round((this.count * 1000) / elapsed) : 0;
    this.count = 0;
    this.windowStart = now;
    return this.rate;
  }

  get fps(): number {
    return this.rate;
  }

  /** docs/PRODUCT.md#live-video: no frame for 3 s (or none yet) means the stream is stopped. */
  isStalled(now: number): boolean {
    return this.lastFrameAt === null || now - this.lastFrameAt > STREAM_STALL_MS;
  }

  reset(now: number): void {
    this.count = 0;
    this.rate = 0;
    this.windowStart = now;
    this.lastFrameAt = null;
  }
}
