import type { CDPSession, Page } from 'playwright-core';
import { untraced } from '../recording/untraced';
import type { CapturesInFlight } from './captures';
import type { SessionLifecycle } from './lifecycle';
import type { NavigationGuard } from './navigation-guard';
import { NetworkQuiet } from './network-quiet';
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
  /**
   * Waits (at most this long) for the network and the fonts first (0 waits not): Playwright's
   * `networkidle`, or for a `fast` capture nothing in flight for 150 ms. @default 5000
   */
  settleMs?: number;
  signal?: AbortSignal;
  /** @default 30000 */
  timeoutMs?: number;
  /**
   * Encodes the PNG for speed rather than size (Chromium's `optimizeForSpeed`: about half the time,
   * a larger file), for captures compared at once; the page must be stilled by the caller (it is not
   * by the capture, as Playwright's `animations: 'disabled'` would). @default false
   */
  fast?: boolean;
}

/**
 * How long no request may be in flight before the network counts as settled for a visual check's
 * capture. Playwright's `networkidle` asks 500 ms once per load (then answers at once, whatever a
 * click fetched since): a check soon after a load waited out the rest of it each time.
 */
const NETWORK_QUIET_MS = 150;

export interface AnotherLoadOptions extends Omit<CapturePageOptions, 'fullPage'> {
  /** CSS put in the other tab before its capture, its focus taken off and its media paused. */
  freezeCss?: string;
}

/** Stills a page as a visual check's capture stills the session's own (design-diff's captureSettled). */
function freeze(page: Page, css: string): Promise<void> {
  return page.evaluate((text) => {
    const style = document.createElement('style');
    style.textContent = text;
    (document.head ?? document.documentElement).append(style);
    (document.activeElement as HTMLElement | null)?.blur?.();
    for (const media of document.querySelectorAll('video, audio')) (media as HTMLMediaElement).pause();
  }, css);
}

/**
 * Lossless PNGs of the page for comparing it with a design: CSS animations and transitions finished,
 * the caret hidden, after the network settles and the fonts load (at most `settleMs`).
 */
export class PageCapturer {
  private readonly quiet: NetworkQuiet;

  constructor(
    private readonly page: Page,
    private readonly lifecycle: SessionLifecycle,
    private readonly guard: NavigationGuard,
    private readonly captures: CapturesInFlight,
    /** The page's DevTools session (Chromium's), for fast captures. */
    private readonly cdp?: () => Promise<CDPSession>,
  ) {
    this.quiet = new NetworkQuiet(page);
  }

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

  /**
   * `BrowserSession.captureAnotherLoad`: the page's address loaded in a new tab of the same context
   * (its cookies, its storage, the same target policy), captured as `capture` captures, then closed.
   * The session's own page is left as it is. Refused for a page that is not an http(s) one.
   */
  captureAnotherLoad(options: AnotherLoadOptions = {}): Promise<PageCapture> {
    const timeout = options.timeoutMs ?? 30_000;
    return this.lifecycle.operation(options, async (signal) => {
      await this.guard.refuseNonWebPage();
      const url = this.page.url();
      const other = await this.page.context().newPage();
      const quiet = new NetworkQuiet(other);
      try {
        const message = `Loading the page again timed out after ${timeout} ms`;
        const load = async () => {
          await other.goto(url, { waitUntil: 'load', timeout });
          if (options.freezeCss !== undefined)
            await untraced(other, () => freeze(other, options.freezeCss ?? ''));
          return this.take(options, timeout, other, quiet);
        };
        return await race(load(), timeout, message, signal);
      } finally {
        await other.close().catch(() => {});
      }
    });
  }

  private async take(
    options: CapturePageOptions,
    timeout: number,
    page = this.page,
    quiet = this.quiet,
  ): Promise<PageCapture> {
    const viewport = viewportOf(page);
    const fullPage = options.fullPage ?? true;
    // The settling and the height are the engine's own reads: no actions of a recorded trace
    // (recording/untraced.ts). The screenshot stays Playwright's call, its errors in its words.
    const pageHeight = await untraced(page, async () => {
      await this.settle(options.settleMs ?? 5_000, page, options.fast === true ? quiet : null);
      return page
        .evaluate(() =>
          Math.ceil(Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0)),
        )
        .catch(() => viewport.height);
    });
    const height = fullPage
      ? Math.max(1, Math.min(Math.max(pageHeight, viewport.height), options.maxHeight ?? 16_384))
      : viewport.height;
    const fast = options.fast === true && page === this.page && this.cdp !== undefined;
    const data = await this.captures.track(
      fast
        ? this.fastPng(viewport.width, height, fullPage)
        : page.screenshot({
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

  /** A PNG through the DevTools protocol, encoded for speed (CSS pixels: the sessions' scale is 1). */
  private async fastPng(width: number, height: number, beyondViewport: boolean): Promise<Buffer> {
    const cdp = await (this.cdp as () => Promise<CDPSession>)();
    const { data } = await cdp.send('Page.captureScreenshot', {
      format: 'png',
      optimizeForSpeed: true,
      captureBeyondViewport: beyondViewport,
      clip: { x: 0, y: 0, width, height, scale: 1 },
    });
    return Buffer.from(data, 'base64');
  }

  /** Waits (at most `settleMs`) for the network to settle (nothing in flight for 50 ms) and the fonts to load. */
  private async settle(settleMs: number, page: Page, quiet: NetworkQuiet | null): Promise<void> {
    if (settleMs <= 0) return;
    const deadline = Date.now() + settleMs;
    if (quiet) {
      // A visual check's capture: nothing in flight now, for a short while, whenever the load was.
      await page.waitForLoadState('load', { timeout: settleMs }).catch(() => {});
      await quiet.settled(NETWORK_QUIET_MS, Math.max(1, deadline - Date.now()));
    } else {
      // A design comparison's capture, once per comparison: Playwright's 500 ms without a connection.
      await page.waitForLoadState('networkidle', { timeout: settleMs }).catch(() => {});
    }
    const left = Math.max(1, deadline - Date.now());
    await page
      .evaluate((ms) => Promise.race([document.fonts.ready, new Promise((r) => setTimeout(r, ms))]), left)
      .then(() => undefined)
      .catch(() => {});
  }
}
