import type { VisualBox, VisualCheckOutcome } from '@argus/protocol';

// The port through which the engine carries out a visual check (`Verify the page looks as approved`,
// `Verify "<region>" looks as approved`; issue 40). The engine takes no picture and keeps no baseline
// itself: the host implements `VisualChecks` (@argus/design-diff's `createVisualChecks`, over the
// server's baseline store) and hands it to `runTestCase` as `visual`.

/**
 * What a visual check needs of the browser session: the two methods design-diff's `captureSettled`
 * uses (its `CaptureSession`, structurally), which `BrowserSession` has.
 */
export interface VisualCaptureSession {
  capturePage(options?: {
    fullPage?: boolean;
    maxHeight?: number;
    settleMs?: number;
    signal?: AbortSignal;
    /** Encoded for speed rather than size (the engine's `CapturePageOptions.fast`). */
    fast?: boolean;
  }): Promise<{ data: Buffer; width: number; height: number; pageHeight: number }>;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A, options?: { signal?: AbortSignal }): Promise<R>;
  /**
   * The page's address loaded again in another tab of the same session (its cookies and storage) and
   * captured as `capturePage` captures, the tab then closed: what differs from this page's capture
   * varies between loads (a banner drawn at random on each load). Absent: not learned.
   */
  captureAnotherLoad?(options?: {
    maxHeight?: number;
    settleMs?: number;
    /** CSS put in the other tab before its capture, its focus taken off and its media paused. */
    freezeCss?: string;
    signal?: AbortSignal;
  }): Promise<{ data: Buffer; width: number; height: number; pageHeight: number }>;
}

/** One visual check, as the step asks it of the port. */
export interface VisualCheckRequest {
  /**
   * The check within its case: `page`, or the region's name; a repeat of the same name in one case is
   * `page #2`, `page #3`. With the viewport, what its baseline is kept under.
   */
  name: string;
  /** The region the step names, or null for the whole page. */
  region: string | null;
  /** The region's box on the page in CSS pixels (page coordinates, scrolled into view); null: the whole page. */
  box: VisualBox | null;
  /** The page's URL now. */
  url: string;
  /** The viewport's CSS size. */
  viewport: { width: number; height: number };
  /** The page to capture. */
  session: VisualCaptureSession;
  /** What is left of the step's time (milliseconds): the capture's settling is kept within it. */
  timeoutMs: number;
}

/** What the port answers: `same` passes; `changed` and `new` are for review and do not fail the step. */
export type VisualVerdict = Pick<VisualCheckOutcome, 'status' | 'issues' | 'message'>;

/** The port: a settled capture compared with the check's approved baseline (the host's). */
export interface VisualChecks {
  check(request: VisualCheckRequest, signal: AbortSignal): Promise<VisualVerdict>;
}

/** A check's verdict as a session recorded it (the runner adds the step's index). */
export type RecordedVisualCheck = Omit<VisualCheckOutcome, 'step_index'>;

/** The step's failure when the run was given no port. */
export const NO_VISUAL_CHECKS =
  'Visual checks need approved baselines, and this run keeps none: the step was not checked';
