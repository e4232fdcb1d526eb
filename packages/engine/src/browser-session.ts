import type { ElementKey, Step } from '@argus/protocol';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import type { PageSnapshot } from './behaviour/snapshot';
import { SessionClipboard } from './clipboard';
import type { PageObservation } from './observe';
import { type PageProblem, PageTracker } from './page-tracker';
import { CapturesInFlight } from './session/captures';
import { ExchangeWatch } from './session/exchanges';
import { type KeyInput, type PointerInput, SessionInput, type WheelInput } from './session/input';
import { SessionLifecycle } from './session/lifecycle';
import { type NavigateResult, Navigator } from './session/navigate';
import { NavigationGuard } from './session/navigation-guard';
import { PageReader } from './session/observation';
import {
  DEFAULT_STEP_TIMEOUT_MS,
  type OperationOptions,
  SETTLING_MS,
  type SessionCloseReason,
  type SessionInternals,
  type SessionOptions,
  type StorageState,
  viewportOf,
} from './session/options';
import {
  type AnotherLoadOptions,
  type CapturePageOptions,
  type PageCapture,
  PageCapturer,
} from './session/page-capture';
import { Screencaster, type ScreencastFrame, type ScreencastOptions } from './session/screencast';
import { type Screenshot, Screenshots } from './session/screenshots';
import { StepPerformer } from './session/steps';
import { fillStep, newRunId, redactError, redactor, type StepVariables, secretValues } from './variables';
import { SessionVisuals } from './visual/session-visuals';
import type { RecordedVisualCheck } from './visual/visual-checks';

export type { Exchange, ExchangeWatch, PageActivity } from './session/exchanges';
export type { KeyInput, PointerButton, PointerInput, WheelInput } from './session/input';
export type { NavigateResult } from './session/navigate';
export { PageLeftError } from './session/navigation-guard';
export type {
  OperationOptions,
  SessionCloseReason,
  SessionInternals,
  SessionOptions,
  StorageState,
} from './session/options';
export type { AnotherLoadOptions, CapturePageOptions, PageCapture } from './session/page-capture';
export { jpegSize, type ScreencastFrame, type ScreencastOptions } from './session/screencast';
export type { Screenshot } from './session/screenshots';

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
 *
 * Each job lives in `session/`: this class assembles them and keeps the public surface in one place.
 */
export class BrowserSession {
  private readonly page: Page;
  private readonly context: BrowserContext;
  private readonly variables?: StepVariables;
  private readonly redact: (text: string) => string;
  private readonly tracker: PageTracker;
  private readonly lifecycle: SessionLifecycle;
  private readonly navigator: Navigator;
  private readonly steps: StepPerformer;
  private readonly reader: PageReader;
  private readonly screenshots: Screenshots;
  private readonly capturer: PageCapturer;
  private readonly screencaster: Screencaster;
  private readonly input: SessionInput;
  private readonly visuals: SessionVisuals | null;
  /** What `{{RUN_ID}}` stands for in this session's steps (one test case: one session, one id). */
  readonly runId = newRunId();

  constructor(internals: SessionInternals, options: SessionOptions = {}) {
    const { context, page } = internals;
    this.page = page;
    this.context = context;
    this.variables = options.variables;
    this.redact = redactor(options.variables);
    this.tracker = new PageTracker(page);
    const stepTimeoutMs = options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
    const captures = new CapturesInFlight();
    let cdp: Promise<CDPSession> | null = null;
    const cdpSession = () => {
      cdp ??= context.newCDPSession(page);
      return cdp;
    };
    this.lifecycle = new SessionLifecycle(internals, options, async () => {
      // A screenshot already asked for is of a step that happened; let it arrive (briefly).
      if (captures.size > 0) await captures.settleWithin(SETTLING_MS);
      await this.screencaster.end().catch(() => {});
    });
    const guard = new NavigationGuard(page, this.tracker, captures, this.lifecycle);
    this.navigator = new Navigator(page, this.tracker, guard, {
      baseUrl: options.baseUrl,
      stepTimeoutMs,
      refusalFor: internals.refusalFor,
    });
    // This session's clipboard: the browser's own is shared by every user's session.
    const clipboard = new SessionClipboard();
    this.visuals = options.visual
      ? new SessionVisuals(options.visual, this, { url: () => page.url(), viewport: () => viewportOf(page) })
      : null;
    this.steps = new StepPerformer(
      page,
      this.tracker,
      guard,
      this.navigator,
      clipboard,
      stepTimeoutMs,
      this.visuals ?? undefined,
    );
    this.reader = new PageReader(page, this.tracker, guard, this.navigator);
    this.screenshots = new Screenshots(page, this.lifecycle, guard, captures, cdpSession);
    this.capturer = new PageCapturer(page, this.lifecycle, guard, captures, cdpSession);
    this.screencaster = new Screencaster(page, this.lifecycle, cdpSession);
    this.input = new SessionInput(page, guard, clipboard, stepTimeoutMs);
    this.lifecycle.start();
  }

  /**
   * The Playwright page, for the engine's own readers that look without acting (a repair finds a
   * step's target and its look-alikes with `locate`: repair/). Acting goes through `perform`, which
   * waits for screenshots in flight and guards navigation.
   */
  get playwrightPage(): Page {
    return this.page;
  }

  /** The page's URL now. */
  get url(): string {
    return this.page.url();
  }

  /** The viewport's CSS size: the space input coordinates are given in. */
  get viewport(): { width: number; height: number } {
    return viewportOf(this.page);
  }

  /** Whether the session has ended (for whatever reason); every operation then rejects. */
  get closed(): boolean {
    return this.lifecycle.closeReason !== null;
  }

  /** Why the session ended, or null while it is open. */
  get closeReason(): SessionCloseReason | null {
    return this.lifecycle.closeReason;
  }

  /**
   * Opens an http(s) URL (relative ones against the page, else the session's `baseUrl`) and waits for
   * it to load. Refuses other schemes with the policy's message, and a host the target policy refuses
   * with the proxy's reason. An HTTP error status is not an error here: see `status`.
   */
  navigate(url: string, options: OperationOptions = {}): Promise<NavigateResult> {
    return this.navigator.navigate(url, options);
  }

  /**
   * The stable attributes (id, form field name, test id) of the element the last step performed found,
   * if any: kept with the step's result so a repair can recognise the element after a redesign.
   */
  get lastElement(): ElementKey | null {
    return this.steps.lastElement;
  }

  /** Performs one step of the step language; answers the selector it used, if any. */
  perform(step: Step, options: OperationOptions = {}): Promise<string | null> {
    let filled: { step: Step; secret: boolean };
    try {
      filled = fillStep(step, this.variables, this.runId);
    } catch (error) {
      return Promise.reject(error);
    }
    if (filled.step === step) return this.steps.perform(step, options);
    return this.steps.perform(filled.step, options).then(
      async (selector) => {
        if (filled.secret) await this.maskSecretFields().catch(() => {});
        return selector === null ? null : this.redact(selector);
      },
      (error: unknown) => {
        throw redactError(error, this.redact);
      },
    );
  }

  /** The visual checks (`… looks as approved`) performed since the last call, oldest first. */
  takeVisualChecks(): RecordedVisualCheck[] {
    return this.visuals?.take() ?? [];
  }

  /** Hides a secret in text this session reports (its variables' secrets become `{{NAME}}`). */
  hideSecrets(text: string): string {
    return this.redact(text);
  }

  /** The context's cookies and storage now: what a signed-in run starts every test from. */
  storageState(): Promise<StorageState> {
    return this.context.storageState();
  }

  /**
   * A field now holding a secret's value is drawn as discs, as a password field is, so screenshots
   * and the live view do not show it; the value itself is untouched.
   */
  private async maskSecretFields(): Promise<void> {
    const values = secretValues(this.variables).map((s) => s.value);
    if (values.length === 0) return;
    await this.page.evaluate((secrets: string[]) => {
      for (const field of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
        'input, textarea',
      )) {
        if (field instanceof HTMLInputElement && field.type === 'password') continue;
        if (secrets.some((secret) => field.value.includes(secret)))
          field.style.setProperty('-webkit-text-security', 'disc', 'important');
      }
    }, values);
  }

  /**
   * What the page's checks left out because a visitor never sees it (the browser's own favicon
   * request, source maps…), since the session opened: for a warning in the test's log.
   */
  ignoredFindings(): PageProblem[] {
    return this.tracker.ignoredFindings();
  }

  /**
   * Starts recording what the page exchanges with its own site (pages, form posts, fetches), step by
   * step (`take()`), until `stop()` or the session ends: how a signed-in run tells a step met an
   * expired session.
   */
  watchExchanges(): ExchangeWatch {
    return new ExchangeWatch(this.page);
  }

  /** What the planners read: the page's title, headings, links, forms… (see {@link PageObservation}). */
  observe(options: OperationOptions = {}): Promise<PageObservation> {
    return this.reader.observe(options);
  }

  /**
   * A read-only picture of the page's state (items, controls, short texts, URL, dialogs, console error
   * and failed request counts), to compare before and after an action (`diffSnapshots`).
   */
  snapshot(options: OperationOptions = {}): Promise<PageSnapshot> {
    return this.reader.snapshot(options);
  }

  /**
   * A JPEG of the viewport as it is now: the capture is asked of the browser before this returns, and
   * operations that change the page wait for it, so it may be awaited later.
   */
  screenshot(options: { quality?: number; signal?: AbortSignal } = {}): Promise<Screenshot> {
    return this.screenshots.take(options);
  }

  /**
   * A lossless PNG of the page as it is now, for comparing it with a design: CSS animations and
   * transitions finished, the caret hidden, after the network settles and the fonts load (at most
   * `settleMs`). Full page by default, cut at `maxHeight`.
   */
  capturePage(options: CapturePageOptions = {}): Promise<PageCapture> {
    return this.capturer.capture(options);
  }

  /**
   * The page's address loaded again in another tab of this session (its cookies and storage) and
   * captured as `capturePage` captures (full page), the tab then closed: a visual check learns from it
   * what differs between loads (docs/VISUAL-CHECKS.md). This session's page is left as it is.
   */
  captureAnotherLoad(options: AnotherLoadOptions = {}): Promise<PageCapture> {
    return this.capturer.captureAnotherLoad(options);
  }

  /**
   * Runs a function in the page and answers its (serialisable) result: for reading the page, e.g. the
   * elements and computed styles under a point. The function is serialised: it sees only its argument.
   */
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A, options: OperationOptions = {}): Promise<R> {
    return this.reader.evaluate(fn, arg, options);
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
    return this.screencaster.start(onFrame, options);
  }

  /** Stops the screencast; a frame being consumed is still acknowledged when its consumer is done. */
  stopScreencast(): Promise<void> {
    return this.screencaster.stop();
  }

  /** A pointer event at viewport coordinates: `click` is a press and release with the button. */
  pointer(event: PointerInput, options: OperationOptions = {}): Promise<void> {
    return this.input.pointer(event, options);
  }

  /** A wheel turn over the point (x, y) of the viewport. */
  wheel(event: WheelInput, options: OperationOptions = {}): Promise<void> {
    return this.input.wheel(event, options);
  }

  /**
   * A key going down, coming up, or both, sent to whatever has the focus. Copy, cut and paste chords
   * (Control+C, Shift+Insert…, or C with Control held by an earlier `down`) use the session's own
   * clipboard instead of reaching the browser, whose clipboard every user shares.
   */
  key(event: KeyInput, options: OperationOptions = {}): Promise<void> {
    return this.input.key(event, options);
  }

  /** Types text into whatever has the focus, a key press per character. */
  type(text: string, options: OperationOptions = {}): Promise<void> {
    return this.input.type(text, options);
  }

  /**
   * Closes the session: screenshots in flight are finished (briefly), the screencast stops, the
   * context closes and the pool slot is freed. Idempotent; an operation in flight rejects with
   * {@link AbortedError}.
   */
  close(): Promise<void> {
    return this.lifecycle.end('closed');
  }
}
