import { type DetailedComparison, figmaSharingInstructions } from '@argus/design-diff';
import { AbortedError } from '@argus/engine';
import type { ClientMessageOf, ComparisonResults } from '@argus/protocol';
import type { Activity } from '../activity/activity-registry';
import { addressed, type Send } from '../realtime/user-channel';
import { reviewComparison } from './ai-review';
import { captureAndCompare } from './capture';
import type { ComparisonDeps, Emit, Progress, Senders } from './comparison-deps';
import type { ComparisonFront } from './comparison-front';
import { ComparisonIntake, type Launch } from './comparison-intake';
import { type DesignFrames, fetchFigmaFrames, mergeFigmaStyles } from './figma-frames';
import { ImageWorkGate } from './image-work';
import { Refusals } from './refusals';
import {
  ALREADY_COMPARING,
  type CompareData,
  type ComparisonRequest,
  figmaUrlOf,
  Refusal,
  RequestChecks,
} from './request-checks';
import { ComparisonStorage, finalResults } from './storage';
import { Uploads } from './uploads';

export { REVIEW_UNAVAILABLE } from './ai-review';
export type { ComparisonDeps, Senders } from './comparison-deps';
export type { ComparisonFront } from './comparison-front';
export { FIGMA_ACCESS_REQUIRED } from './refusals';
export {
  ALREADY_COMPARING,
  type CompareData,
  MAX_VIEWPORTS,
  NOT_A_FIGMA_URL,
  Refusal,
  UPLOAD_NOT_FOUND,
} from './request-checks';
export { ENGINE_FIGMA, ENGINE_PIXEL } from './storage';
export { UPLOAD_BUSY } from './uploads';

export const COMPARISON_STOPPED = 'Comparison stopped';

/** A comparison's own progress record, for the activity registry. */
interface ComparisonProgress {
  percent: number;
  message: string;
}

/**
 * Design comparison on the server (issue 11): checks a request (the session, the website against the
 * browser's target policy, the uploaded design or the Figma link and token), then compares in the
 * background as an activity of the user's (one at a time), telling the user's sockets its progress
 * (`vision_comparison_progress`), and ends with `vision_comparison_completed` or
 * `vision_comparison_error`. The results, with each viewport's images, are stored with the session
 * whether or not a socket still listens; a stop ends the work within a second (the signal reaches the
 * Figma requests, the pool's queue and the browser sessions, which close).
 *
 * It orchestrates; each step is a file of this folder: comparison-intake.ts (a request as it arrives),
 * request-checks.ts, uploads.ts, figma-frames.ts, capture.ts, ai-review.ts, storage.ts, and refusals.ts
 * for what the user is told when one fails. It is also the local ComparisonFront (comparison-front.ts).
 */
export class ComparisonService implements ComparisonFront {
  /** Image work of every comparison and upload in this process, COMPARISON_IMAGE_CONCURRENCY at once. */
  readonly imageWork: ImageWorkGate;
  private readonly checks: RequestChecks;
  private readonly uploads: Uploads;
  private readonly refusals: Refusals;
  private readonly storage: ComparisonStorage;
  private readonly intake: ComparisonIntake;

  constructor(private readonly deps: ComparisonDeps) {
    this.imageWork = new ImageWorkGate(deps.config.comparisonImageConcurrency);
    this.checks = new RequestChecks(deps);
    this.uploads = new Uploads(deps, this.checks, this.decodeWork);
    this.refusals = new Refusals(deps);
    this.storage = new ComparisonStorage(deps);
    this.intake = this.intakeFor((userId, request, _data, emit) => {
      this.start(userId, request, emit);
    });
  }

  /**
   * Requests checked with this process's checks, uploads and refusals, then handed to `launch`: how
   * the queued front (scale/queued-comparisons.ts) checks before it queues.
   */
  intakeFor(launch: Launch): ComparisonIntake {
    return new ComparisonIntake(
      { checks: this.checks, uploads: this.uploads, refusals: this.refusals },
      launch,
    );
  }

  /**
   * Runs one upload of the user's (HTTP or socket): refused at once, before its body is decoded, when
   * another of theirs is still being processed (COMPARISON_BUSY: refused, not queued, so a flood costs
   * nothing) or when they have sent UPLOADS_PER_USER in the window (RATE_LIMITED, with Retry-After).
   */
  upload<T>(userId: string, work: () => Promise<T>): Promise<T> {
    return this.uploads.run(userId, work);
  }

  /** Runs a decode of an upload's under the process's image-work bound. */
  readonly decodeWork = <T>(run: () => Promise<T>): Promise<T> => this.imageWork.run(run);

  /** `figma_website_comparison`: checks, then compares in the background. */
  compare(userId: string, data: CompareData, send: Senders): Promise<void> {
    return this.intake.compare(userId, data, send);
  }

  /**
   * A comparison a web process queued, on the worker that took it (scale/comparison-worker.ts): checked
   * again with this process's services, then run; resolves once it is over. What it says, a refusal
   * included, goes to `send` (every socket of the user).
   */
  async compareQueued(userId: string, data: CompareData, send: Send): Promise<void> {
    const emit = addressed(send, data.session_id || null);
    try {
      const request = await this.checks.check(userId, data);
      await this.start(userId, request, emit).done;
    } catch (error) {
      this.refusals.refuse(error, emit, data.comparison_type === 'figma' ? data.figma_url : null);
    }
  }

  /** `upload_and_compare_image`: stores the image as an upload (`upload_completed`), then compares it if a website is given. */
  uploadAndCompare(
    userId: string,
    data: ClientMessageOf<'upload_and_compare_image'>['data'],
    send: Senders,
  ): Promise<void> {
    return this.intake.uploadAndCompare(userId, data, send);
  }

  /**
   * `stop_comparison`: stops the user's comparison (of the session named, or any) and says so once it
   * is over; with nothing under way it says so at once (the screen may have missed the end).
   */
  async stop(userId: string, sessionId: string | null, send: Send): Promise<void> {
    // A request still being checked is not started once its checks end.
    this.intake.stopChecks(userId, sessionId);
    const running = this.deps.activities
      .list(userId, { feature: 'design' })
      .find((a) => !sessionId || a.sessionId === sessionId);
    const emit = addressed(send, running?.sessionId ?? sessionId);
    if (running) await this.deps.activities.stop(running);
    emit({ type: 'vision_comparison_error', data: { error: COMPARISON_STOPPED } });
  }

  /** Whether a comparison of the user's runs in this process (a worker answers stops only then). */
  comparing(userId: string): boolean {
    return this.deps.activities.find(userId, 'design') !== undefined;
  }

  /** `get_figma_help`: how to share a file with the server's Figma account. */
  help(data: ClientMessageOf<'get_figma_help'>['data'], send: Send): void {
    const emit = addressed(send, data.session_id || null);
    // The token's account is not looked up (that would be a call to Figma per question): the text
    // names 'the Figma account of the server's token' instead of an address.
    const instructions = figmaSharingInstructions({
      figma_url: data.figma_url || null,
      error_context: data.error_context,
      service_account_email: null,
    });
    emit({ type: 'figma_sharing_instructions', data: { ...instructions } });
  }

  /** Begins the work (refused when the user's comparison or browsers are busy); returns at once. */
  private start(
    userId: string,
    request: ComparisonRequest,
    emit: Emit,
  ): Activity<ComparisonProgress, 'comparing'> {
    // Asked before the browsers are taken (begin takes them first): a comparison holding all the user's
    // browsers would otherwise refuse the second with the browser budget's words rather than these.
    if (this.deps.activities.find(userId, 'design')) throw new Refusal(ALREADY_COMPARING);
    return this.deps.activities.begin<ComparisonProgress, 'comparing'>(
      {
        userId,
        feature: 'design',
        kind: 'comparing',
        sessionId: request.sessionId,
        browsers: Object.keys(request.viewports).length,
        progress: { percent: 0, message: 'Starting' },
        // One comparison per user at a time: a second is refused (not queued, not replacing the first).
        conflict: (existing) => (existing.feature === 'design' ? new Refusal(ALREADY_COMPARING) : null),
      },
      (activity) => this.run(userId, request, activity, emit),
    );
  }

  /** The work: the design, the capture and measures, the Figma styles and review, storage; then the outcome. */
  private async run(
    userId: string,
    request: ComparisonRequest,
    activity: Activity<ComparisonProgress, 'comparing'>,
    emit: Emit,
  ): Promise<void> {
    const { signal } = activity;
    let last = 0;
    const progress: Progress = (percent, message) => {
      if (signal.aborted) return;
      // Never backwards: viewports finish in any order.
      last = Math.max(last, Math.min(100, Math.round(percent)));
      activity.progress.percent = last;
      activity.progress.message = message;
      emit({ type: 'vision_comparison_progress', data: { message, progress_percentage: last } });
    };
    try {
      progress(1, `Starting the comparison with ${request.websiteUrl}`);
      const { source } = request;
      let frames: DesignFrames;
      if (source.type === 'image') {
        progress(3, 'Reading the uploaded design');
        const design = await this.storage.readDesign(source.sha256);
        frames = { design, figmaFacts: new Map(), drawnAt: {}, unrendered: {} };
      } else {
        frames = await fetchFigmaFrames(this.deps, source, request.viewports, signal, progress, (message) =>
          progress(last, message),
        );
      }
      const detailed = await captureAndCompare(
        this.deps,
        this.imageWork,
        request,
        frames,
        activity.browsers,
        signal,
        progress,
      );
      if (signal.aborted) throw new AbortedError();
      Object.assign(detailed.results.viewport_analysis, frames.unrendered);
      const results = await this.finish(userId, request, detailed, frames, signal, progress);
      progress(100, 'Comparison complete');
      emit({ type: 'vision_comparison_completed', data: { results } });
    } catch (error) {
      if (signal.aborted || error instanceof AbortedError) return; // the stop says so
      this.refusals.fail(error, emit, figmaUrlOf(request));
    }
  }

  /**
   * Adds the Figma style differences and the model's visual review (when there is one), stores each
   * viewport's images and the results with the session, and returns the results with fresh links.
   */
  private async finish(
    userId: string,
    request: ComparisonRequest,
    detailed: DetailedComparison,
    frames: DesignFrames,
    signal: AbortSignal,
    progress: Progress,
  ): Promise<ComparisonResults> {
    const measured = mergeFigmaStyles(detailed, frames.figmaFacts);
    const review = await reviewComparison(
      this.deps,
      userId,
      request.sessionId,
      detailed,
      measured,
      signal,
      progress,
    );
    if (signal.aborted) throw new AbortedError();
    progress(92, 'Saving the results');
    const { images, viewportImages } = await this.storage.storeImages(userId, detailed, signal);
    const final = finalResults(request, detailed, measured, review, viewportImages);
    if (signal.aborted) throw new AbortedError();
    await this.storage.save(userId, request, final, images);
    return final;
  }

  /** The stored comparison of a session, links signed afresh; undefined when it has none of the user's. */
  stored(userId: string, sessionId: string) {
    return this.storage.stored(userId, sessionId);
  }
}
