import type { Step } from '@argus/protocol';
import type { BrowserContext, CDPSession, Frame, Page } from 'playwright-core';
import { type PageSnapshot, readSnapshot } from './behaviour/snapshot';
import { AbortedError, cleanError } from './errors';
import { observePage, type PageObservation } from './observe';
import { type PageProblem, PageTracker } from './page-tracker';
import {
  clipboardAction,
  performClipboard,
  performStep,
  refuseChording,
  SessionClipboard,
} from './perform-step';
import { BLOCKED_HEADER } from './policy-proxy';
import { isWebPage, resolveWebUrl, SchemeRefusedError } from './web-url';

export interface SessionOptions {
  /** @default 1280x800 */
  viewport?: { width: number; height: number };
  /** What relative `navigate` targets resolve against while the page shows no web page. */
  baseUrl?: string;
  /**
   * Aborting closes the session (reason `aborted`): the operation in flight rejects with
   * {@link AbortedError} at once, and so does every later one. Aborting while the pool has no free
   * slot rejects `openSession` itself.
   */
  signal?: AbortSignal;
  /** The session closes itself (reason `idle`) after this long without an operation; 0 never. @default 300000 */
  idleTimeoutMs?: number;
  /** How long `perform`, `navigate` and input events may take unless told otherwise. @default 10000 */
  stepTimeoutMs?: number;
  /** Told once, after the session's browser context is closed and its pool slot freed. */
  onClose?: (reason: SessionCloseReason) => void;
}

/**
 * Why a session ended: `closed` by its holder, `idle`, its signal `aborted`, its page `crashed`,
 * `browser-closed` (the page, its context or the whole browser went away underneath), `pool-closed`.
 */
export type SessionCloseReason = 'closed' | 'idle' | 'aborted' | 'crashed' | 'browser-closed' | 'pool-closed';

export interface OperationOptions {
  /**
   * Aborting rejects this operation with {@link AbortedError} at once and leaves the session open and
   * usable. The engine stops its own waiting for the operation (locating, polling); a browser action
   * already sent (a click, a navigation) is not undone and may still complete.
   */
  signal?: AbortSignal;
  /** Overrides the session's `stepTimeoutMs`. */
  timeoutMs?: number;
}

/** A JPEG of the viewport. */
export interface Screenshot {
  data: Buffer;
  /** The viewport's CSS size (the JPEG is this size at device scale 1). */
  width: number;
  height: number;
}

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

export type PointerButton = 'left' | 'middle' | 'right';
/** A pointer event at viewport coordinates (CSS pixels from the viewport's top left). */
export interface PointerInput {
  type: 'move' | 'down' | 'up' | 'click';
  x: number;
  y: number;
  /** @default 'left' */
  button?: PointerButton;
}
export interface WheelInput {
  x: number;
  y: number;
  deltaX: number;
  deltaY: number;
}
/** A key by its `KeyboardEvent.key` name (`Enter`, `a`, `ArrowDown`) or a chord (`Control+A`). */
export interface KeyInput {
  type: 'down' | 'up' | 'press';
  key: string;
}

export interface NavigateResult {
  /** The URL asked for, resolved (http or https). */
  requested: string;
  /** Where the page is now, redirects followed. */
  url: string;
  /** The main document's HTTP status (0 when there was no response, e.g. a same-document jump). */
  status: number;
}

/** The page left the web (a link or script took it to `file:` or `view-source:`): it was left for about:blank. */
export class PageLeftError extends SchemeRefusedError {
  /** The selector the step used before the page went, if any. */
  selector: string | null = null;
}

/** What the pool hands a session it opens; not for callers. */
export interface SessionInternals {
  context: BrowserContext;
  page: Page;
  /** The policy proxy's reason for refusing `host`, to explain a failed navigation. */
  refusalFor: (host: string) => Promise<string | undefined>;
  /** Frees the pool slot; called once, after the context is closed. */
  release: () => void;
  poolClosed: () => boolean;
}

const JPEG_QUALITY = 60;
const MAX_TYPED = 10_000;
const SETTLING_MS = 2_000;

/**
 * One isolated browser context with one page, held by its caller across calls: navigate, perform
 * steps, observe, photograph, stream frames and send input. Opened by `BrowserPool.openSession()`,
 * which counts it against `maxContexts` until it closes.
 *
 * Every navigation is checked by the target policy (http/https only, and all traffic through the
 * policy proxy); after anything that may move the page, and before anything reads or photographs it,
 * a page that is not a web page is sent to about:blank and the operation fails with the policy's
 * message. A screenshot shows the page as it was when it was asked for: operations that change the
 * page wait for screenshots in flight before changing anything, while reading operations run on.
 */
export class BrowserSession {
  private readonly context: BrowserContext;
  private readonly page: Page;
  private readonly tracker: PageTracker;
  private readonly internals: SessionInternals;
  private readonly baseUrl?: string;
  private readonly stepTimeoutMs: number;
  private readonly idleTimeoutMs: number;
  private readonly onCloseCallback?: (reason: SessionCloseReason) => void;
  private readonly userSignal?: AbortSignal;
  /** Aborted when the holder closes the session, it idles out or its signal aborts. */
  private readonly lifetime = new AbortController();
  private readonly captures = new Set<Promise<unknown>>();
  /** This session's clipboard: the browser's own is shared by every user's session. */
  private readonly clipboard = new SessionClipboard();
  private cdp: Promise<CDPSession> | null = null;
  private cast: Screencast | null = null;
  private lastStatus = 0;
  /** How many times a page that left the web was sent to about:blank, and the last URL it showed. */
  private left = { count: 0, url: '' };
  private busy = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private reason: SessionCloseReason | null = null;
  private ending: Promise<void> | null = null;
  private readonly onUserAbort = () => void this.end('aborted');

  constructor(internals: SessionInternals, options: SessionOptions = {}) {
    this.internals = internals;
    this.context = internals.context;
    this.page = internals.page;
    this.tracker = new PageTracker(this.page);
    this.baseUrl = options.baseUrl;
    this.stepTimeoutMs = options.stepTimeoutMs ?? 10_000;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 300_000;
    this.onCloseCallback = options.onClose;
    this.userSignal = options.signal;
    this.userSignal?.addEventListener('abort', this.onUserAbort, { once: true });
    const gone = () => void this.end(internals.poolClosed() ? 'pool-closed' : 'browser-closed');
    this.context.on('close', gone);
    this.page.on('close', gone);
    this.page.on('crash', () => void this.end('crashed'));
    if (this.userSignal?.aborted) void this.end('aborted');
    else this.armIdle();
  }

  /** The page's URL now. */
  get url(): string {
    return this.page.url();
  }

  /** The viewport's CSS size: the space input coordinates are given in. */
  get viewport(): { width: number; height: number } {
    return this.page.viewportSize() ?? { width: 1280, height: 800 };
  }

  /** Whether the session has ended (for whatever reason); every operation then rejects. */
  get closed(): boolean {
    return this.reason !== null;
  }

  /** Why the session ended, or null while it is open. */
  get closeReason(): SessionCloseReason | null {
    return this.reason;
  }

  /**
   * Opens an http(s) URL (relative ones against the page, else the session's `baseUrl`) and waits for
   * it to load. Refuses other schemes with the policy's message, and a host the target policy refuses
   * with the proxy's reason. An HTTP error status is not an error here: see `status`.
   */
  navigate(url: string, options: OperationOptions = {}): Promise<NavigateResult> {
    const timeout = options.timeoutMs ?? this.stepTimeoutMs;
    return this.changing(
      options,
      timeout + SETTLING_MS,
      `Navigation timed out after ${timeout} ms`,
      (_signal, since) => this.goto(url, timeout, since),
    );
  }

  /** Performs one step of the step language; answers the selector it used, if any. */
  async perform(step: Step, options: OperationOptions = {}): Promise<string | null> {
    const timeout = options.timeoutMs ?? this.stepTimeoutMs;
    let selector: string | null = null;
    try {
      return await this.changing(
        options,
        timeout + SETTLING_MS,
        `Step timed out after ${timeout} ms`,
        async (signal, since) => {
          selector = await performStep(
            {
              page: this.page,
              tracker: this.tracker,
              timeout,
              signal,
              beforeChange: () => this.beforeChange(since),
              navigate: (target, ms) => this.goto(target, ms, since),
              clipboard: this.clipboard,
            },
            step,
          );
          return selector;
        },
      );
    } catch (error) {
      if (error instanceof PageLeftError) error.selector = selector;
      throw error;
    }
  }

  /**
   * What the page's checks left out because a visitor never sees it (the browser's own favicon
   * request, source maps…), since the session opened: for a warning in the test's log.
   */
  ignoredFindings(): PageProblem[] {
    return this.tracker.ignoredFindings();
  }

  /** What the planners read: the page's title, headings, links, forms… (see {@link PageObservation}). */
  observe(options: OperationOptions = {}): Promise<PageObservation> {
    const timeout = options.timeoutMs ?? 15_000;
    return this.operation(options, async (signal) => {
      await this.refuseNonWebPage();
      return race(
        observePage(this.page, this.tracker, this.lastStatus),
        timeout,
        `Observing the page timed out after ${timeout} ms`,
        signal,
      );
    });
  }

  /**
   * A read-only picture of the page's state (items, controls, short texts, URL, dialogs, console error
   * and failed request counts), to compare before and after an action (`diffSnapshots`).
   */
  snapshot(options: OperationOptions = {}): Promise<PageSnapshot> {
    const timeout = options.timeoutMs ?? 15_000;
    return this.operation(options, async (signal) => {
      await this.refuseNonWebPage();
      const read = readSnapshot(this.page).then((s) => ({
        ...s,
        consoleErrors: this.tracker.consoleErrors().length,
        failedRequests: this.tracker.failedRequests().length,
      }));
      return race(read, timeout, `Reading the page timed out after ${timeout} ms`, signal);
    });
  }

  /**
   * A JPEG of the viewport as it is now: the capture is asked of the browser before this returns, and
   * operations that change the page wait for it, so it may be awaited later.
   */
  screenshot(options: { quality?: number; signal?: AbortSignal } = {}): Promise<Screenshot> {
    return this.operation(options, async () => {
      if (!isWebPage(this.page.url())) await this.refuseNonWebPage();
      const shot = this.capture(options.quality ?? JPEG_QUALITY);
      this.captures.add(shot);
      let taken: Screenshot;
      try {
        taken = await shot;
      } finally {
        this.captures.delete(shot);
      }
      // The page may have gone somewhere that is not a web page (a script, a late navigation) while it
      // was being photographed: then the picture may show it, and is thrown away.
      if (!isWebPage(this.page.url())) throw new PageLeftError(await this.leave());
      return taken;
    });
  }

  /**
   * A lossless PNG of the page as it is now, for comparing it with a design: CSS animations and
   * transitions finished, the caret hidden, after the network goes idle and the fonts load (at most
   * `settleMs`). Full page by default, cut at `maxHeight`.
   */
  capturePage(options: CapturePageOptions = {}): Promise<PageCapture> {
    const timeout = options.timeoutMs ?? 30_000;
    return this.operation(options, async (signal) => {
      await this.refuseNonWebPage();
      const settleMs = options.settleMs ?? 5_000;
      const work = async (): Promise<PageCapture> => {
        if (settleMs > 0) {
          const deadline = Date.now() + settleMs;
          await this.page.waitForLoadState('networkidle', { timeout: settleMs }).catch(() => {});
          const left = Math.max(1, deadline - Date.now());
          await this.page
            .evaluate(
              (ms) => Promise.race([document.fonts.ready, new Promise((r) => setTimeout(r, ms))]),
              left,
            )
            .then(() => undefined)
            .catch(() => {});
        }
        const viewport = this.viewport;
        const fullPage = options.fullPage ?? true;
        const pageHeight = await this.page
          .evaluate(() =>
            Math.ceil(Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0)),
          )
          .catch(() => viewport.height);
        const height = fullPage
          ? Math.max(1, Math.min(Math.max(pageHeight, viewport.height), options.maxHeight ?? 16_384))
          : viewport.height;
        const shot = this.page.screenshot({
          type: 'png',
          fullPage,
          animations: 'disabled',
          caret: 'hide',
          scale: 'css',
          timeout,
          ...(fullPage ? { clip: { x: 0, y: 0, width: viewport.width, height } } : {}),
        });
        this.captures.add(shot);
        let data: Buffer;
        try {
          data = await shot;
        } finally {
          this.captures.delete(shot);
        }
        return { data, width: data.readUInt32BE(16), height: data.readUInt32BE(20), pageHeight };
      };
      const taken = await race(work(), timeout, `Capturing the page timed out after ${timeout} ms`, signal);
      if (!isWebPage(this.page.url())) throw new PageLeftError(await this.leave());
      return taken;
    });
  }

  /**
   * Runs a function in the page and answers its (serialisable) result: for reading the page, e.g. the
   * elements and computed styles under a point. The function is serialised: it sees only its argument.
   */
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A, options: OperationOptions = {}): Promise<R> {
    const timeout = options.timeoutMs ?? 15_000;
    return this.operation(options, async (signal) => {
      await this.refuseNonWebPage();
      return race(
        this.page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg as unknown),
        timeout,
        `Reading the page timed out after ${timeout} ms`,
        signal,
      );
    });
  }

  /**
   * Streams the viewport as JPEG frames (Chromium sends one when the page repaints). `onFrame` gets one
   * frame at a time; each is acknowledged to the browser only once `onFrame`'s promise settles. A frame
   * that arrives meanwhile waits in a single slot, replaced by any newer one, so a slow consumer gets
   * the latest frame, never a backlog. Starting again replaces the running screencast.
   */
  startScreencast(
    onFrame: (frame: ScreencastFrame) => void | Promise<void>,
    options: ScreencastOptions = {},
  ): Promise<void> {
    return this.operation({}, async () => {
      const cdp = await this.cdpSession();
      await this.endScreencast();
      const viewport = this.viewport;
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

  /** Stops the screencast; a frame being consumed is still acknowledged when its consumer is done. */
  stopScreencast(): Promise<void> {
    return this.operation({}, () => this.endScreencast());
  }

  /** A pointer event at viewport coordinates: `click` is a press and release with the button. */
  async pointer(event: PointerInput, options: OperationOptions = {}): Promise<void> {
    const { x, y } = coordinates(event);
    const button = event.button ?? 'left';
    if (!['left', 'middle', 'right'].includes(button)) throw new RangeError(`Unknown button ${button}`);
    if (!['move', 'down', 'up', 'click'].includes(event.type))
      throw new RangeError(`Unknown pointer event ${event.type}`);
    const mouse = this.page.mouse;
    return this.input(options, async () => {
      if (event.type === 'click') return mouse.click(x, y, { button });
      await mouse.move(x, y);
      if (event.type === 'down') await mouse.down({ button });
      if (event.type === 'up') await mouse.up({ button });
    });
  }

  /** A wheel turn over the point (x, y) of the viewport. */
  async wheel(event: WheelInput, options: OperationOptions = {}): Promise<void> {
    const { x, y } = coordinates(event);
    if (!Number.isFinite(event.deltaX) || !Number.isFinite(event.deltaY))
      throw new RangeError('Wheel deltas must be finite numbers');
    return this.input(options, async () => {
      await this.page.mouse.move(x, y);
      await this.page.mouse.wheel(event.deltaX, event.deltaY);
    });
  }

  /**
   * A key going down, coming up, or both, sent to whatever has the focus. Copy, cut and paste chords
   * (Control+C, Shift+Insert…, or C with Control held by an earlier `down`) use the session's own
   * clipboard instead of reaching the browser, whose clipboard every user shares.
   */
  async key(event: KeyInput, options: OperationOptions = {}): Promise<void> {
    if (typeof event.key !== 'string' || event.key === '' || event.key.length > 64)
      throw new RangeError('A key is a key name such as "Enter" or "a"');
    if (!['down', 'up', 'press'].includes(event.type))
      throw new RangeError(`Unknown key event ${event.type}`);
    const keyboard = this.page.keyboard;
    const action = event.type === 'up' ? null : clipboardAction(event.key, this.clipboard.held);
    return this.input(options, async () => {
      if (action) return performClipboard(this.page, this.clipboard, action);
      if (event.type === 'down') await keyboard.down(event.key);
      else if (event.type === 'up') await keyboard.up(event.key);
      else await keyboard.press(event.key);
      this.clipboard.track(event.type, event.key);
    });
  }

  /** Types text into whatever has the focus, a key press per character. */
  async type(text: string, options: OperationOptions = {}): Promise<void> {
    if (typeof text !== 'string' || text.length > MAX_TYPED)
      throw new RangeError(`At most ${MAX_TYPED} characters can be typed at once`);
    return this.input(options, async () => {
      refuseChording(this.clipboard);
      await this.page.keyboard.type(text);
    });
  }

  /**
   * Closes the session: screenshots in flight are finished (briefly), the screencast stops, the
   * context closes and the pool slot is freed. Idempotent; an operation in flight rejects with
   * {@link AbortedError}.
   */
  close(): Promise<void> {
    return this.end('closed');
  }

  // ---- internals ---------------------------------------------------------------------------------

  private input(options: OperationOptions, work: () => Promise<void>): Promise<void> {
    const timeout = options.timeoutMs ?? this.stepTimeoutMs;
    return this.changing(options, timeout, `Input timed out after ${timeout} ms`, async (_signal, since) => {
      await this.beforeChange(since);
      await work();
    });
  }

  /**
   * Runs an operation: refused once closed; rejected with AbortedError as soon as the session's
   * or the operation's signal aborts (the work is told through the signal it receives). The work is
   * started synchronously, before this returns.
   */
  private operation<T>(
    options: { signal?: AbortSignal },
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    if (this.reason) {
      return Promise.reject(
        this.reason === 'aborted'
          ? new AbortedError()
          : new Error(`The browser session is closed (${this.reason})`),
      );
    }
    const sources = [this.lifetime.signal, options.signal].filter((s): s is AbortSignal => !!s);
    if (sources.some((s) => s.aborted)) return Promise.reject(this.abortError(options.signal));
    const controller = new AbortController();
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        controller.abort();
        reject(this.abortError(options.signal));
      };
    });
    for (const s of sources) s.addEventListener('abort', onAbort!, { once: true });
    this.busy++;
    this.clearIdle();
    const run = work(controller.signal);
    run.catch(() => {}); // it may lose the race and reject later
    return Promise.race([run, aborted]).finally(() => {
      for (const s of sources) s.removeEventListener('abort', onAbort!);
      controller.abort(); // nothing of it goes on polling
      this.busy--;
      this.armIdle();
    });
  }

  private abortError(opSignal?: AbortSignal): AbortedError {
    if (opSignal?.aborted || this.reason === 'aborted') return new AbortedError();
    return new AbortedError('The browser session closed');
  }

  /**
   * An operation that may move the page: raced against its timeout; afterwards, whatever happened, a
   * page that is not a web page is left for about:blank and the operation fails with the policy's
   * message (so does an operation during which a screenshot found the page gone from the web); a
   * crashed page fails it with 'The page crashed'. `work` gets the count of departures it started at.
   */
  private changing<T>(
    options: OperationOptions,
    timeoutMs: number,
    timeoutMessage: string,
    work: (signal: AbortSignal, since: number) => Promise<T>,
  ): Promise<T> {
    return this.operation(options, async (signal) => {
      const since = this.left.count;
      let result: T | undefined;
      let failure: unknown = null;
      try {
        result = await race(work(signal, since), timeoutMs, timeoutMessage, signal);
      } catch (error) {
        failure = error;
      }
      if (!(failure instanceof AbortedError && this.lifetime.signal.aborted)) {
        const left = await this.leaveNonWebPage();
        if (left) throw new PageLeftError(left);
        if (this.left.count !== since) throw new PageLeftError(this.left.url);
        if (this.tracker.crashed) throw new Error('The page crashed');
      }
      if (failure) throw failure;
      return result as T;
    });
  }

  /**
   * Whatever led there (a link, a script, a redirect the proxy did not see), a page that is not a web
   * page is left before anything is photographed or read from it. Answers the URL it left, if any.
   */
  private async leaveNonWebPage(): Promise<string | null> {
    const page = this.page;
    if (page.isClosed() || this.tracker.crashed || isWebPage(page.url())) return null;
    return this.leave();
  }

  /** Sends the page to about:blank, counting the departure; answers the URL it left. */
  private async leave(): Promise<string> {
    const shown = this.page.url();
    this.left = { count: this.left.count + 1, url: shown };
    await this.settleCaptures();
    await this.page.goto('about:blank', { timeout: 5_000 }).catch(() => {});
    return shown;
  }

  private async refuseNonWebPage(): Promise<void> {
    const left = await this.leaveNonWebPage();
    if (left) throw new PageLeftError(left);
    if (this.tracker.crashed) throw new Error('The page crashed');
  }

  private async goto(target: string, timeout: number, since: number): Promise<NavigateResult> {
    const current = this.page.url();
    // Relative targets resolve against the page (else the base URL); only http(s) may be opened.
    const url = resolveWebUrl(target, current.startsWith('http') ? current : this.baseUrl);
    await this.beforeChange(since);
    this.tracker.reset();
    let response: Awaited<ReturnType<Page['goto']>>;
    try {
      response = await this.page.goto(url, { timeout, waitUntil: 'load' });
    } catch (error) {
      const refusal = await this.internals.refusalFor(new URL(url).hostname);
      throw new Error(refusal ?? `Could not open ${url}: ${cleanError(error)}`);
    }
    // Only the proxy's own refusal of a plain-HTTP request counts: over HTTPS the proxy sees a tunnel
    // (a refusal there is a failed navigation, above), so a header there is the site's own.
    const blocked =
      response?.status() === 403 && response.url().startsWith('http:')
        ? response.headers()[BLOCKED_HEADER]
        : undefined;
    if (blocked) throw new Error(decodeURIComponent(blocked));
    this.lastStatus = response?.status() ?? 0;
    return { requested: url, url: this.page.url(), status: this.lastStatus };
  }

  /**
   * Before anything changes the page: the screenshots asked for are taken first; if one of them found
   * the page gone from the web since the operation began, the operation changes nothing and fails.
   */
  private async beforeChange(since: number): Promise<void> {
    await this.settleCaptures();
    if (this.left.count !== since) throw new PageLeftError(this.left.url);
  }

  private async settleCaptures(): Promise<void> {
    if (this.captures.size > 0) await Promise.allSettled([...this.captures]);
  }

  private cdpSession(): Promise<CDPSession> {
    this.cdp ??= this.context.newCDPSession(this.page);
    return this.cdp;
  }

  /**
   * Straight from CDP: about half the cost of page.screenshot (STACK-NOTES.md). Chromium captures the
   * frame when it handles the command, so the command is sent before anything else happens.
   */
  private async capture(quality: number): Promise<Screenshot> {
    const size = this.viewport;
    const viaCdp = await this.cdpSession()
      .then((cdp) => cdp.send('Page.captureScreenshot', { format: 'jpeg', quality }))
      .then((shot) => Buffer.from(shot.data, 'base64'))
      // CDP refuses while a new document is being committed; Playwright's own capture waits for it.
      .catch(() => null);
    const data = viaCdp ?? (await this.page.screenshot({ type: 'jpeg', quality, timeout: 5_000 }));
    return { data, width: size.width, height: size.height };
  }

  private async endScreencast(): Promise<void> {
    const cast = this.cast;
    this.cast = null;
    if (!cast) return;
    cast.stop();
    await cast.cdp.send('Page.stopScreencast').catch(() => {});
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private armIdle(): void {
    this.clearIdle();
    if (this.reason || this.busy > 0 || !(this.idleTimeoutMs > 0)) return;
    this.idleTimer = setTimeout(() => void this.end('idle'), this.idleTimeoutMs);
    this.idleTimer.unref();
  }

  private end(reason: SessionCloseReason): Promise<void> {
    if (this.ending) return this.ending;
    this.reason = reason;
    this.clearIdle();
    this.userSignal?.removeEventListener('abort', this.onUserAbort);
    // Operations in flight give up at once, unless the browser went away under them: they then fail
    // with the browser's own error (a user's stop and a crash read differently).
    if (reason === 'closed' || reason === 'idle' || reason === 'aborted') this.lifetime.abort();
    this.ending = (async () => {
      // A screenshot already asked for is of a step that happened; let it arrive (briefly).
      if (this.captures.size > 0) {
        await Promise.race([
          Promise.allSettled([...this.captures]),
          new Promise((r) => setTimeout(r, SETTLING_MS).unref()),
        ]);
      }
      await this.endScreencast().catch(() => {});
      await this.context.close().catch(() => {});
      this.internals.release();
      try {
        this.onCloseCallback?.(reason);
      } catch {
        // the holder's callback cannot undo the close
      }
    })();
    return this.ending;
  }
}

/** One running screencast: a frame with its consumer, and at most one waiting (the newest). */
class Screencast {
  private consuming = false;
  private waiting: ScreencastFrameEvent | null = null;
  private stopped = false;
  private readonly listener = (event: ScreencastFrameEvent) => this.arrive(event);
  // A navigation that swaps the renderer can leave a screencast started before it silent (seen on a
  // loaded CI machine: a whole run without a frame), so each new main document starts it again.
  private readonly onNavigated = (frame: Frame) => {
    if (frame === this.page.mainFrame() && !this.stopped) void this.start().catch(() => {});
  };

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
    return this.cdp.send('Page.startScreencast', this.params);
  }

  stop(): void {
    this.stopped = true;
    this.cdp.off('Page.screencastFrame', this.listener);
    this.page.off('framenavigated', this.onNavigated);
    if (this.waiting) this.ack(this.waiting);
    this.waiting = null;
  }

  private arrive(event: ScreencastFrameEvent): void {
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

function coordinates(event: { x: number; y: number }): { x: number; y: number } {
  if (!Number.isFinite(event.x) || !Number.isFinite(event.y))
    throw new RangeError('Viewport coordinates must be finite numbers');
  return { x: event.x, y: event.y };
}

function clampInt(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(Number.isFinite(n) ? n : min)));
}

/** `work`, unless the timeout or the signal comes first. */
async function race<T>(work: Promise<T>, ms: number, message: string, signal: AbortSignal): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
      }),
      new Promise<never>((_, reject) => {
        onAbort = () => reject(new AbortedError());
        if (signal.aborted) onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    work.catch(() => {}); // the loser of the race may still reject later
  }
}
