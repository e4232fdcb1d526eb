import type { Page } from 'playwright-core';
import { untraced } from '../recording/untraced';
import type { CapturesInFlight } from './captures';
import type { SessionLifecycle } from './lifecycle';
import type { NavigationGuard } from './navigation-guard';
import { viewportOf } from './options';
import { race } from './race';

/** A PNG of the page (see {@link BrowserSession.capturePage}). */
export interface PageCapture {
  data: Buffer;
  /** The PNG's size in pixels: CSS pixels, at device scale 1. */
  width: number;
  height: number;
  /** The page's full scroll height in CSS pixels (more than `height` when the capture was cut at `maxHeight`). */
  pageHeight: number;
}

export interface CapturePageOptions {
  /** The whole scrollable page rather than the viewport. @default true */
  fullPage?: boolean;
  /** A full-page capture is cut at this height (CSS pixels). @default 16384 */
  maxHeight?: number;
  /** Waits (at most this long) for the network to go idle and the fonts to load first; 0 waits not. @default 5000 */
  settleMs?: number;
  signal?: AbortSignal;
  /** @default 30000 */
  timeoutMs?: number;
}

/**
 * Lossless PNGs of the page for comparing it with a design: CSS animations and transitions finished,
 * the caret hidden, after the network goes idle and the fonts load (at most `settleMs`).
 */
export class PageCapturer {
  constructor(
    private readonly page: Page,
    private readonly lifecycle: SessionLifecycle,
    private readonly guard: NavigationGuard,
    private readonly captures: CapturesInFlight,
  ) {}

  /** `BrowserSession.capturePage`: full page by default, cut at `maxHeight`. */
  capture(options: CapturePageOptions = {}): Promise<PageCapture> {
    const timeout = options.timeoutMs ?? 30_000;
    return this.lifecycle.operation(options, async (signal) => {
      await this.guard.refuseNonWebPage();
      const message = `Capturing the page timed out after ${timeout} ms`;
      const taken = await race(this.take(options, timeout), timeout, message, signal);
      await this.guard.refuseIfLeft();
      return taken;
    });
  }

  private async take(options: CapturePageOptions, timeout: number): Promise<PageCapture> {
    const page = this.page;
    const viewport = viewportOf(page);
    const fullPage = options.fullPage ?? true;
    // The settling and the height are the engine's own reads: no actions of a recorded trace
    // (recording/untraced.ts). The screenshot stays Playwright's call, its errors in its words.
    const pageHeight = await untraced(page, async () => {
      await this.settle(options.settleMs ?? 5_000);
      return page
        .evaluate(() =>
          Math.ceil(Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0)),
        )
        .catch(() => viewport.height);
    });
    const height = fullPage
      ? Math.max(1, Math.min(Math.max(pageHeight, viewport.height), options.maxHeight ?? 16_384))
      : viewport.height;
    const data = await this.captures.track(
      page.screenshot({
        type: 'png',
        fullPage,
        animations: 'disabled',
        caret: 'hide',
        scale: 'css',
        timeout,
        ...(fullPage ? { clip: { x: 0, y: 0, width: viewport.width, height } } : {}),
      }),
    );
    return { data, width: data.readUInt32BE(16), height: data.readUInt32BE(20), pageHeight };
  }

  /** Waits (at most `settleMs`) for the network to go idle and the fonts to load. */
  private async settle(settleMs: number): Promise<void> {
    if (settleMs <= 0) return;
    const page = this.page;
    const deadline = Date.now() + settleMs;
    await page.waitForLoadState('networkidle', { timeout: settleMs }).catch(() => {});
    const left = Math.max(1, deadline - Date.now());
    await page
      .evaluate((ms) => Promise.race([document.fonts.ready, new Promise((r) => setTimeout(r, ms))]), left)
      .then(() => undefined)
      .catch(() => {});
  }
}
