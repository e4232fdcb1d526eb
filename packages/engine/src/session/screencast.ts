import type { CDPSession, Frame, Page } from 'playwright-core';
import { untraced } from '../recording/untraced';
import type { SessionLifecycle } from './lifecycle';
import { JPEG_QUALITY, viewportOf } from './options';

export interface ScreencastFrame {
  /** JPEG bytes, scaled down to fit `maxWidth` × `maxHeight`. */
  data: Buffer;
  /** The JPEG's own size in pixels. */
  width: number;
  height: number;
  /** The viewport it shows, in CSS pixels: the space input coordinates are given in. */
  viewport: { width: number; height: number };
  /** When the browser produced it (ms since the epoch). */
  timestamp: number;
}

export interface ScreencastOptions {
  /** @default the viewport width */
  maxWidth?: number;
  /** @default the viewport height */
  maxHeight?: number;
  /** JPEG quality 0–100. @default 60 */
  quality?: number;
}

/** The session's live stream of the viewport (CDP `Page.startScreencast`), at most one at a time. */
export class Screencaster {
  private cast: Screencast | null = null;

  constructor(
    private readonly page: Page,
    private readonly lifecycle: SessionLifecycle,
    private readonly cdp: () => Promise<CDPSession>,
  ) {}

  /** `BrowserSession.startScreencast`: starting again replaces the running screencast. */
  start(
    onFrame: (frame: ScreencastFrame) => void | Promise<void>,
    options: ScreencastOptions = {},
  ): Promise<void> {
    return this.lifecycle.operation({}, async () => {
      // Opening the CDP session is no action of a case's trace (recording/untraced.ts).
      const cdp = await untraced(this.page, () => this.cdp());
      await this.end();
      const viewport = viewportOf(this.page);
      const cast = new Screencast(cdp, this.page, onFrame, {
        format: 'jpeg',
        quality: clampInt(options.quality ?? JPEG_QUALITY, 0, 100),
        maxWidth: clampInt(options.maxWidth ?? viewport.width, 1, 8192),
        maxHeight: clampInt(options.maxHeight ?? viewport.height, 1, 8192),
        everyNthFrame: 1,
      });
      this.cast = cast;
      await cast.start();
    });
  }

  /** `BrowserSession.stopScreencast`. */
  stop(): Promise<void> {
    return this.lifecycle.operation({}, () => this.end());
  }

  /** Stops the running screencast, if any (also as the session closes, outside any operation). */
  async end(): Promise<void> {
    const cast = this.cast;
    this.cast = null;
    if (!cast) return;
    cast.stop();
    await cast.cdp.send('Page.stopScreencast').catch(() => {});
  }
}

/** How long a started screencast may stay without a frame before it is started again, and how often. */
const NO_FRAME_RETRY_MS = 1_000;
const NO_FRAME_RETRIES = 3;

/** One running screencast: a frame with its consumer, and at most one waiting (the newest). */
class Screencast {
  private consuming = false;
  private waiting: ScreencastFrameEvent | null = null;
  private stopped = false;
  private readonly listener = (event: ScreencastFrameEvent) => this.arrive(event);
  // A navigation that swaps the renderer can leave a screencast started before it silent (seen on a
  // loaded CI machine: a whole run without a frame), so each new main document starts it again. The
  // swap can also come between the start being sent and this listener seeing the navigation (a
  // session's first navigation while its screencast is still starting), so a start that brought no
  // frame is repeated a few times (NO_FRAME_RETRY_MS apart) until one comes.
  private readonly onNavigated = (frame: Frame) => {
    if (frame === this.page.mainFrame() && !this.stopped) void this.start().catch(() => {});
  };
  private framed = false;
  private retries = 0;
  private retry: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly cdp: CDPSession,
    private readonly page: Page,
    private readonly onFrame: (frame: ScreencastFrame) => void | Promise<void>,
    private readonly params: {
      format: 'jpeg';
      quality: number;
      maxWidth: number;
      maxHeight: number;
      everyNthFrame: number;
    },
  ) {
    cdp.on('Page.screencastFrame', this.listener);
    page.on('framenavigated', this.onNavigated);
  }

  start(): Promise<unknown> {
    this.framed = false;
    this.retries = 0;
    this.armRetry();
    return this.cdp.send('Page.startScreencast', this.params);
  }

  private armRetry(): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.stopped || this.framed || this.retries >= NO_FRAME_RETRIES) return;
      this.retries += 1;
      this.armRetry();
      this.cdp.send('Page.startScreencast', this.params).catch(() => {});
    }, NO_FRAME_RETRY_MS);
    this.retry.unref?.();
  }

  stop(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.cdp.off('Page.screencastFrame', this.listener);
    this.page.off('framenavigated', this.onNavigated);
    if (this.waiting) this.ack(this.waiting);
    this.waiting = null;
  }

  private arrive(event: ScreencastFrameEvent): void {
    this.framed = true;
    if (this.stopped) this.ack(event);
    else if (!this.consuming) void this.deliver(event);
    else {
      // The consumer is busy: an older frame still waiting will never be shown, so it is let go.
      if (this.waiting) this.ack(this.waiting);
      this.waiting = event;
    }
  }

  private async deliver(event: ScreencastFrameEvent): Promise<void> {
    this.consuming = true;
    for (let next: ScreencastFrameEvent | null = event; next; ) {
      try {
        await this.onFrame(toFrame(next));
      } catch {
        // a consumer's failure with one frame does not stop the stream
      }
      this.ack(next);
      next = this.stopped ? null : this.waiting;
      this.waiting = null;
    }
    this.consuming = false;
  }

  private ack(event: ScreencastFrameEvent): void {
    this.cdp.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => {});
  }
}

interface ScreencastFrameEvent {
  data: string;
  sessionId: number;
  metadata: { deviceWidth: number; deviceHeight: number; timestamp?: number };
}

function toFrame(event: ScreencastFrameEvent): ScreencastFrame {
  const data = Buffer.from(event.data, 'base64');
  const size = jpegSize(data);
  return {
    data,
    width: size?.width ?? 0,
    height: size?.height ?? 0,
    viewport: { width: event.metadata.deviceWidth, height: event.metadata.deviceHeight },
    timestamp: event.metadata.timestamp ? Math.round(event.metadata.timestamp * 1000) : Date.now(),
  };
}

/** Width and height from a JPEG's start-of-frame segment. */
export function jpegSize(data: Buffer): { width: number; height: number } | null {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return null;
  let i = 2;
  while (i + 9 < data.length) {
    if (data[i] !== 0xff) return null;
    const marker = data[i + 1];
    if (marker === 0xff) {
      i++;
      continue;
    }
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: data.readUInt16BE(i + 5), width: data.readUInt16BE(i + 7) };
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    i += 2 + data.readUInt16BE(i + 2);
  }
  return null;
}

function clampInt(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(Number.isFinite(n) ? n : min)));
}
