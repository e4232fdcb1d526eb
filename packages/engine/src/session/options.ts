import type { BrowserContext, Page } from 'playwright-core';
import type { StepVariables } from '../variables';
import type { VisualChecks } from '../visual/visual-checks';

/** Cookies and local storage of a signed-in browser, as Playwright saves and restores them. */
export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

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
  /** The context starts signed in: these cookies and origins' storage (a project's login). */
  storageState?: StorageState;
  /**
   * What `{{NAME}}` in a performed step stands for. Values are filled in only as the step is
   * performed; a secret is hidden again in whatever the step answers or throws.
   */
  variables?: StepVariables;
  /**
   * Playwright's `recordVideo` for the session's context (a case's video, docs/DIAGNOSTICS.md): the
   * folder its files go to and their size.
   */
  recordVideo?: { dir: string; size: { width: number; height: number } };
  /**
   * Called once the context exists, before its page does: a case's recording (its trace, its console
   * and network) starts here, so the page is born with it rather than having it installed.
   */
  onContextCreated?: (context: BrowserContext) => Promise<void>;
  /**
   * Called once the context and its page exist, before the session is handed out or its page opens
   * anything: a case's recording learns its page here (and starts, if `onContextCreated` was not called).
   */
  onContextOpen?: (opened: { context: BrowserContext; page: Page }) => Promise<void>;
  /**
   * Called as the session ends, before its context closes, with why: a recording still running (a
   * crash, a stop) is stopped here while the context can still give it up.
   */
  onContextClosing?: (reason: SessionCloseReason) => Promise<void>;
  /**
   * The port `Verify … looks as approved` steps are checked through (visual/visual-checks.ts); their
   * verdicts wait in `takeVisualChecks()`. Absent: such a step fails, naming why.
   */
  visual?: VisualChecks;
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

/** How long `perform`, `navigate` and input events may take unless told otherwise. */
export const DEFAULT_STEP_TIMEOUT_MS = 10_000;

/**
 * How much longer than its own timeout a step or navigation is given before the session gives up on
 * it (the browser's own timeout, which says more, comes first), and how long closing waits for
 * screenshots already asked for.
 */
export const SETTLING_MS = 2_000;

/** JPEG quality of screenshots and screencast frames unless told otherwise. */
export const JPEG_QUALITY = 60;

/** The viewport's CSS size: the space input coordinates are given in. */
export function viewportOf(page: Page): { width: number; height: number } {
  return page.viewportSize() ?? { width: 1280, height: 800 };
}
