import { type ModelClient, ModelError, type ReviewRecommendation, reviewDesign, seesImages } from '@argus/ai';
import type { Repositories } from '@argus/db';
import {
  type CaptureSession,
  type CompareDesignOptions,
  compareDesignDetailed,
  compareStyles,
  type DesignFacts,
  type DetailedComparison,
  FIGMA_TOKEN_NEEDED,
  FigmaClient,
  FigmaError,
  FigmaUrlError,
  FrameSelectError,
  figmaSharingInstructions,
  ImageLimitError,
  loadFigmaDesign,
  MAX_VIEWPORT_PIXELS,
  parseFigmaUrl,
  pixelBudget,
  type StyleDifference,
  type Viewports,
} from '@argus/design-diff';
import {
  AbortedError,
  type BrowserSession,
  type QueueOptions,
  QueuePositions,
  queuedMessage,
  type SessionOptions,
  type TargetPolicy,
} from '@argus/engine';
import {
  type ClientMessageOf,
  type ComparisonIssue,
  type ComparisonResults,
  ComparisonResultsSchema,
  type CssFix,
  DEFAULT_VIEWPORTS,
  type ServerMessageInput,
  type ViewportImages,
} from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import type { Activity, ActivityRegistry } from '../activity/activity-registry';
import type { ModelClientResolver } from '../automation/engines';
import type { Config } from '../config';
import { AppError } from '../errors';
import { addressed, type Unaddressed } from '../realtime/user-channel';
import type { BlobStore } from '../services/blob-store';
import { RateLimiter } from '../services/rate-limiter';
import type { SignedUrls } from '../services/signed-urls';
import {
  checkDesignQuota,
  dataUrlBytes,
  decodeDataUrl,
  problemText,
  storeDesignUpload,
  storedBytes,
  toUploadedDesign,
} from './design-uploads';
import { ImageWorkGate } from './image-work';

type Send = (message: ServerMessageInput) => void;
type Emit = (message: Unaddressed) => void;
/**
 * Where answers go: a refusal to the socket that asked only (another tab did not ask), the work's
 * progress and outcome to every socket of the user (each tab follows the comparison).
 */
export interface Senders {
  reply: Send;
  broadcast: Send;
}

export const ENGINE_PIXEL = 'Argus design-diff (pixel, SSIM, CIEDE2000)';
export const ENGINE_FIGMA = 'Argus design-diff (pixel, SSIM, CIEDE2000) + Figma node styles';
export const COMPARISON_STOPPED = 'Comparison stopped';
export const UPLOAD_NOT_FOUND = 'The uploaded design was not found; upload it again';
export const NOT_A_FIGMA_URL = 'Please enter a valid Figma file URL';
export const FIGMA_ACCESS_REQUIRED = 'Figma file access required. Please share your file.';
export const ALREADY_COMPARING =
  'A comparison is already running. Wait for it to finish or stop it before starting another.';
/** Viewports one comparison may ask for (each is a browser capture). */
export const MAX_VIEWPORTS = 6;
/** The start of the note a comparison carries when the user's model could not review it. */
export const REVIEW_UNAVAILABLE = 'AI visual review unavailable';
/**
 * The review's images are at most this size (pixels): a model is billed per pixel, and a long page's
 * top screens say what a reviewer needs; the measured comparison covers the rest.
 */
const REVIEW_MAX_WIDTH = 1280;
const REVIEW_MAX_HEIGHT = 2048;

/** What a comparison's work needs of the server. */
export interface ComparisonDeps {
  config: Pick<
    Config,
    | 'figmaApiBase'
    | 'maxStoredBytesPerUser'
    | 'comparisonImageConcurrency'
    | 'comparisonMaxPixels'
    | 'uploadsPerUser'
    | 'rateLimitWindowSeconds'
  >;
  repos: Repositories;
  blobs: BlobStore;
  urls: SignedUrls;
  /** Comparisons begin there, one per user, taking browsers of the user's MAX_BROWSERS_PER_USER. */
  activities: ActivityRegistry;
  /** The browser pool's `openSession` (its `onQueued` says the comparison's place in line). */
  openSession: (options: SessionOptions & QueueOptions) => Promise<BrowserSession>;
  /** The browser's target policy: a website the browser may not reach is refused before anything starts. */
  policy: Pick<TargetPolicy, 'check'>;
  /** The user's Figma token (Settings), else FIGMA_TOKEN. */
  figmaToken: (userId: string) => Promise<string | undefined>;
  /** Refuses a `session_id` that is not the user's (SESSION_NOT_FOUND). */
  checkSession: (userId: string, sessionId: string | null) => Promise<void>;
  /**
   * The user's model (automation's choice: Settings, else AI_*), for the optional visual review added
   * to the measured results when it sees images; none: no review is ever asked for.
   */
  reviewModel?: ModelClientResolver;
  /** Figma's API is called with it (tests inject one). @default globalThis.fetch */
  fetch?: typeof fetch;
  log: FastifyBaseLogger;
}

/** A comparison's own progress record, for the activity registry. */
interface ComparisonProgress {
  percent: number;
  message: string;
}

/** What to compare, once every check passed. */
type Source =
  | { type: 'image'; fileId: string; sha256: string }
  | { type: 'figma'; figmaUrl: string; fileKey: string; nodeId?: string; token: string };

interface Request {
  sessionId: string | null;
  websiteUrl: string;
  viewports: Viewports;
  options: NonNullable<ClientMessageOf<'figma_website_comparison'>['data']['options']> | undefined;
  source: Source;
}

/** A refusal shown on the design screen as its error (not a socket `error`). */
class Refusal extends Error {}

/**
 * Refusals for a limit, answered as a socket `error` with the code (feature design) so a client can
 * tell a limit from a failure; the design screen shows them as its error as well.
 */
const LIMIT_CODES = new Set<string>([
  'COMPARISON_BUSY',
  'COMPARISON_TOO_LARGE',
  'RATE_LIMITED',
  'STORAGE_QUOTA_EXCEEDED',
]);

export const UPLOAD_BUSY =
  'A design upload of yours is still being processed: send the next one once it has finished (one at a time).';

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** At most `n` at once: a comparison holds no more browsers than the user's budget gave it. */
function limiter(n: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(run: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await run();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/**
 * Design comparison on the server (issue 11): checks a request (the session, the website against the
 * browser's target policy, the uploaded design or the Figma link and token), then compares in the
 * background as an activity of the user's (one at a time), telling the user's sockets its progress
 * (`vision_comparison_progress`), and ends with `vision_comparison_completed` or
 * `vision_comparison_error`. The results, with each viewport's images, are stored with the session
 * whether or not a socket still listens; a stop ends the work within a second (the signal reaches the
 * Figma requests, the pool's queue and the browser sessions, which close).
 */
export class ComparisonService {
  /** Requests still being checked (before their activity exists), so a Stop can reach them too. */
  private readonly checking = new Set<{ userId: string; sessionId: string | null; stopped: boolean }>();

  /** Image work of every comparison and upload in this process, COMPARISON_IMAGE_CONCURRENCY at once. */
  readonly imageWork: ImageWorkGate;
  /** UPLOADS_PER_USER per RATE_LIMIT_WINDOW_SECONDS, over HTTP and the socket together. */
  private readonly uploads: RateLimiter;
  /** Users with an upload being checked, decoded or stored: one at a time each. */
  private readonly uploading = new Set<string>();

  constructor(private readonly deps: ComparisonDeps) {
    this.imageWork = new ImageWorkGate(deps.config.comparisonImageConcurrency);
    this.uploads = new RateLimiter(deps.config.uploadsPerUser, deps.config.rateLimitWindowSeconds * 1000);
  }

  /**
   * Runs one upload of the user's (HTTP or socket): refused at once, before its body is decoded, when
   * another of theirs is still being processed (COMPARISON_BUSY: refused, not queued, so a flood costs
   * nothing) or when they have sent UPLOADS_PER_USER in the window (RATE_LIMITED, with Retry-After).
   */
  async upload<T>(userId: string, work: () => Promise<T>): Promise<T> {
    if (this.uploading.has(userId)) throw new AppError('COMPARISON_BUSY', UPLOAD_BUSY);
    const { allowed, retryAfterSeconds } = this.uploads.hit(userId);
    if (!allowed) {
      const { uploadsPerUser, rateLimitWindowSeconds } = this.deps.config;
      throw new AppError(
        'RATE_LIMITED',
        `Too many design uploads: at most ${uploadsPerUser} every ${Math.round(rateLimitWindowSeconds / 60)} minutes (UPLOADS_PER_USER, RATE_LIMIT_WINDOW_SECONDS). Try again in ${retryAfterSeconds} s.`,
        { 'retry-after': String(retryAfterSeconds) },
      );
    }
    this.uploading.add(userId);
    try {
      return await work();
    } finally {
      this.uploading.delete(userId);
    }
  }

  /** Runs a decode of an upload's under the process's image-work bound. */
  readonly decodeWork = <T>(run: () => Promise<T>): Promise<T> => this.imageWork.run(run);

  /** Checks a request, then starts it unless a Stop arrived while it was being checked. */
  private async checkAndStart(
    userId: string,
    data: ClientMessageOf<'figma_website_comparison'>['data'],
    emit: Emit,
  ): Promise<void> {
    const pending = { userId, sessionId: data.session_id || null, stopped: false };
    this.checking.add(pending);
    try {
      const request = await this.check(userId, data);
      if (!pending.stopped) this.start(userId, request, emit);
    } finally {
      this.checking.delete(pending);
    }
  }

  /** `figma_website_comparison`: checks, then compares in the background. */
  async compare(
    userId: string,
    data: ClientMessageOf<'figma_website_comparison'>['data'],
    send: Senders,
  ): Promise<void> {
    const sessionId = data.session_id || null;
    const emit = addressed(send.broadcast, sessionId);
    const refuse = addressed(send.reply, sessionId);
    try {
      await this.checkAndStart(userId, data, emit);
    } catch (error) {
      this.refuse(error, refuse, data.comparison_type === 'figma' ? data.figma_url : null);
    }
  }

  /** `upload_and_compare_image`: stores the image as an upload (`upload_completed`), then compares it if a website is given. */
  async uploadAndCompare(
    userId: string,
    data: ClientMessageOf<'upload_and_compare_image'>['data'],
    send: Senders,
  ): Promise<void> {
    const sessionId = data.session_id || null;
    const emit = addressed(send.broadcast, sessionId);
    const refuse = addressed(send.reply, sessionId);
    try {
      const row = await this.upload(userId, async () => {
        // Its size and the user's quota first, from the base64's length: nothing is decoded for a
        // design that could not be stored.
        const size = dataUrlBytes(data.image_data);
        await this.deps.checkSession(userId, sessionId);
        // Checked before the upload is stored: a website the comparison could not reach stores nothing.
        if (data.website_url) await this.checkWebsite(data.website_url);
        const { repos, blobs, urls, config } = this.deps;
        await checkDesignQuota(repos, userId, config.maxStoredBytesPerUser, size);
        const bytes = decodeDataUrl(data.image_data);
        return storeDesignUpload(
          {
            repos,
            blobs,
            urls,
            maxStoredBytesPerUser: config.maxStoredBytesPerUser,
            imageWork: this.decodeWork,
          },
          userId,
          bytes,
          data.filename,
        );
      });
      const uploaded = toUploadedDesign(row, this.deps.urls);
      emit({
        type: 'upload_completed',
        data: {
          file_id: uploaded.file_id,
          filename: uploaded.filename,
          url: uploaded.url,
          ...(uploaded.thumbnail_url && { thumbnail_url: uploaded.thumbnail_url }),
        },
      });
      if (!data.website_url) return;
      await this.checkAndStart(
        userId,
        { comparison_type: 'image', file_id: row.id, website_url: data.website_url, session_id: sessionId },
        emit,
      );
    } catch (error) {
      this.refuse(error, refuse, null);
    }
  }

  /**
   * `stop_comparison`: stops the user's comparison (of the session named, or any) and says so once it
   * is over; with nothing under way it says so at once (the screen may have missed the end).
   */
  async stop(userId: string, sessionId: string | null, send: Send): Promise<void> {
    const running = this.deps.activities
      .list(userId, { feature: 'design' })
      .find((a) => !sessionId || a.sessionId === sessionId);
    const emit = addressed(send, running?.sessionId ?? sessionId);
    // A request still being checked is not started once its checks end.
    for (const pending of this.checking)
      if (pending.userId === userId && (!sessionId || pending.sessionId === sessionId))
        pending.stopped = true;
    if (running) await this.deps.activities.stop(running);
    emit({ type: 'vision_comparison_error', data: { error: COMPARISON_STOPPED } });
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

  /** Every check that needs no browser, so a bad request is refused before any work starts. */
  private async check(
    userId: string,
    data: ClientMessageOf<'figma_website_comparison'>['data'],
  ): Promise<Request> {
    const sessionId = data.session_id || null;
    await this.deps.checkSession(userId, sessionId);
    let source: Source;
    if (data.comparison_type === 'image') {
      const row = await this.deps.repos.designComparisons.upload(userId, data.file_id);
      if (!row) throw new Refusal(UPLOAD_NOT_FOUND);
      source = { type: 'image', fileId: row.id, sha256: row.sha256 };
    } else {
      let ref: ReturnType<typeof parseFigmaUrl>;
      try {
        ref = parseFigmaUrl(data.figma_url);
      } catch (error) {
        if (error instanceof FigmaUrlError) throw new Refusal(NOT_A_FIGMA_URL);
        throw error;
      }
      const token = await this.deps.figmaToken(userId);
      if (!token) throw new Refusal(FIGMA_TOKEN_NEEDED);
      source = { type: 'figma', figmaUrl: data.figma_url, fileKey: ref.fileKey, nodeId: ref.nodeId, token };
    }
    await this.checkWebsite(data.website_url);
    const viewports: Viewports =
      data.viewports && Object.keys(data.viewports).length
        ? data.viewports
        : data.options?.include_responsive === false
          ? { desktop: DEFAULT_VIEWPORTS.desktop }
          : { ...DEFAULT_VIEWPORTS };
    if (Object.keys(viewports).length > MAX_VIEWPORTS)
      throw new Refusal(`Compare at most ${MAX_VIEWPORTS} viewports at once`);
    for (const name of Object.keys(viewports))
      if (name.length > 50) throw new Refusal('A viewport name may be at most 50 characters');
    // The pixels the viewports take, before any browser or decode (the comparison checks them again).
    try {
      pixelBudget(viewports, { maxComparisonPixels: this.deps.config.comparisonMaxPixels });
    } catch (error) {
      throw this.limitError(error);
    }
    return { sessionId, websiteUrl: data.website_url, viewports, options: data.options, source };
  }

  /** An http(s) address the server's browser may open (DESIGN.md §6's target policy). */
  private async checkWebsite(url: string): Promise<void> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Refusal('Please enter a valid website URL (http:// or https://)');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new Refusal('Please enter a valid website URL (http:// or https://)');
    const decision = await this.deps.policy.check(parsed);
    if (!decision.allowed) throw new Refusal(`The website cannot be compared: ${decision.reason}`);
  }

  /** Begins the work (refused when the user's comparison or browsers are busy); returns at once. */
  private start(userId: string, request: Request, emit: Emit): void {
    // Asked before the browsers are taken (begin takes them first): a comparison holding all the user's
    // browsers would otherwise refuse the second with the browser budget's words rather than these.
    if (this.deps.activities.find(userId, 'design')) throw new Refusal(ALREADY_COMPARING);
    this.deps.activities.begin<ComparisonProgress, 'comparing'>(
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

  private async run(
    userId: string,
    request: Request,
    activity: Activity<ComparisonProgress, 'comparing'>,
    emit: Emit,
  ): Promise<void> {
    const { signal } = activity;
    let last = 0;
    const progress = (percent: number, message: string) => {
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
      let design: CompareDesignOptions['design'];
      const figmaFacts = new Map<string, { facts: DesignFacts; frameWidth: number }>();
      // A Figma frame is rendered at each viewport's width; which frame it was says what it was drawn for.
      const drawnAt: Record<string, { id: string; width: number }> = {};
      /** Viewports whose Figma frame could not be rendered, with why. */
      const unrendered: Record<string, string> = {};
      if (source.type === 'image') {
        progress(3, 'Reading the uploaded design');
        design = await readAll(this.deps.blobs.read(source.sha256));
      } else {
        progress(3, 'Fetching the design from Figma');
        const client = new FigmaClient({
          token: source.token,
          apiBase: this.deps.config.figmaApiBase,
          signal,
          fetch: this.deps.fetch,
          onRateLimited: ({ retryAfterSeconds }) =>
            progress(
              last,
              `Figma asked to wait ${Math.ceil(retryAfterSeconds)} s before the next request; waiting`,
            ),
        });
        const perViewport: Record<string, Buffer> = {};
        const names = Object.keys(request.viewports);
        for (const [i, name] of names.entries()) {
          let loaded: Awaited<ReturnType<typeof loadFigmaDesign>>;
          try {
            loaded = await loadFigmaDesign(
              client,
              { fileKey: source.fileKey, ...(source.nodeId && { nodeId: source.nodeId }) },
              request.viewports[name].width,
            );
          } catch (error) {
            // A frame Figma cannot render (empty, hidden) costs that viewport, not the comparison;
            // access, rate and network errors concern every viewport and end it.
            if (!frameOnlyError(error) || signal.aborted) throw error;
            const why = (error as Error).message;
            unrendered[name] = `Not compared: ${why}.`;
            progress(3 + (7 * (i + 1)) / names.length, `Skipped the ${name} viewport: ${why}`);
            continue;
          }
          perViewport[name] = loaded.png;
          drawnAt[name] = { id: loaded.frame.id, width: loaded.frame.width };
          figmaFacts.set(name, { facts: loaded.facts, frameWidth: loaded.frame.width });
          progress(
            3 + (7 * (i + 1)) / names.length,
            `Fetched the Figma frame "${loaded.frame.name}" of "${loaded.fileName}" for ${name} (${loaded.reason})`,
          );
        }
        if (Object.keys(perViewport).length === 0) {
          throw new Refusal(
            `No frame of the Figma file could be compared: ${Object.values(unrendered).join(' ')}`,
          );
        }
        design = perViewport;
      }
      if (signal.aborted) throw new AbortedError();
      const run = limiter(activity.browsers);
      // While its viewports wait for browsers (MAX_BROWSERS, shared by every user), the comparison
      // says its place in line; once it holds one it is capturing and says that instead.
      const line = new QueuePositions((position) => progress(10, queuedMessage(position)));
      const open = (viewport: { width: number; height: number }, openSignal?: AbortSignal) =>
        run(async () => {
          const { value } = await line.acquire((request) =>
            this.deps.openSession({
              viewport,
              signal: openSignal ?? signal,
              onQueued: request.onQueued,
              onClose: request.over,
            }),
          );
          return value;
        }) as Promise<CaptureSession>;
      progress(10, `Capturing ${request.websiteUrl}`);
      const detailed = await compareDesignDetailed({
        design,
        url: request.websiteUrl,
        viewports: Object.fromEntries(
          Object.entries(request.viewports).filter(([name]) => !(name in unrendered)),
        ),
        options: request.options,
        openSession: open,
        signal,
        keepImages: true,
        drawnAt,
        readDomFacts: source.type === 'figma',
        maxComparisonPixels: this.deps.config.comparisonMaxPixels,
        imageWork: (work, workSignal) => this.imageWork.run(work, workSignal),
        onProgress: ({ percent, message }) => {
          // design-diff's 0..100 is this comparison's 10..90.
          if (percent < 100) progress(10 + percent * 0.8, message);
        },
      });
      if (signal.aborted) throw new AbortedError();
      Object.assign(detailed.results.viewport_analysis, unrendered);
      const results = await this.finish(userId, request, detailed, figmaFacts, signal, progress);
      progress(100, 'Comparison complete');
      emit({ type: 'vision_comparison_completed', data: { results } });
    } catch (error) {
      if (signal.aborted || error instanceof AbortedError) return; // the stop says so
      this.fail(error, emit, figmaUrlOf(request));
    }
  }

  /**
   * Adds the Figma style differences and the model's visual review (when there is one), stores each
   * viewport's images and the results with the session, and returns the results with fresh links.
   */
  private async finish(
    userId: string,
    request: Request,
    detailed: DetailedComparison,
    figmaFacts: Map<string, { facts: DesignFacts; frameWidth: number }>,
    signal: AbortSignal,
    progress: (percent: number, message: string) => void,
  ): Promise<ComparisonResults> {
    const { results } = detailed;
    const issues: ComparisonIssue[] = [...results.specific_issues];
    const fixes: CssFix[] = [...results.css_fixes];
    const seenFix = new Set(fixes.map((f) => `${f.selector}\u0000${f.property}`));
    for (const viewport of detailed.viewports) {
      const figma = figmaFacts.get(viewport.name);
      if (!figma || !viewport.domFacts) continue;
      const styles = compareStyles(figma.facts, viewport.domFacts, { viewportWidth: viewport.width });
      for (const [i, difference] of styles.differences.entries()) {
        issues.push(styleIssue(difference, viewport.name));
        const fix = styles.fixes[i];
        const key = `${fix.selector}\u0000${fix.property}`;
        if (!seenFix.has(key)) {
          seenFix.add(key);
          fixes.push(fix);
        }
      }
      for (const text of styles.unmatchedTexts.slice(0, 20)) {
        issues.push({
          issue: `Text of the design not found on the page: "${text.characters.slice(0, 80)}"`,
          description: `The Figma layer "${text.name}" reads "${text.characters.slice(0, 300)}", and no element of the page (${viewport.name}) reads close to it: it is missing or worded differently.`,
          kind: 'content',
          priority: 'medium',
          element: null,
          location: null,
        });
      }
    }
    const review = await this.review(userId, request, detailed, { issues, fixes }, signal, progress);
    if (signal.aborted) throw new AbortedError();
    progress(92, 'Saving the results');
    // Each viewport's two images, stored as the user's (within their quota) and linked.
    const images: Record<string, { site: string; design: string; width: number; height: number }> = {};
    const viewportImages: Record<string, ViewportImages> = {};
    let used = await storedBytes(this.deps.repos, userId);
    for (const viewport of detailed.viewports) {
      if (!viewport.images || signal.aborted) continue;
      const size = viewport.images.site.length + viewport.images.design.length;
      if (used + size > this.deps.config.maxStoredBytesPerUser) {
        this.deps.log.warn({ userId }, 'comparison images not stored: the storage quota is used up');
        break;
      }
      used += size;
      const store = async (png: Buffer) =>
        (
          await this.deps.repos.designComparisons.addImage(userId, {
            sha256: await this.deps.blobs.put(png),
            bytes: png.length,
            width: viewport.width,
            height: viewport.comparedHeight,
          })
        ).id;
      const site = await store(viewport.images.site);
      const design = await store(viewport.images.design);
      images[viewport.name] = { site, design, width: viewport.width, height: viewport.comparedHeight };
      viewportImages[viewport.name] = signedImages(this.deps.urls, userId, images[viewport.name]);
    }
    const measuredEngine = request.source.type === 'figma' ? ENGINE_FIGMA : ENGINE_PIXEL;
    const final = ComparisonResultsSchema.parse({
      ...results,
      specific_issues: issues.slice(0, 1000),
      css_fixes: fixes.slice(0, 1000),
      recommendations: [...results.recommendations, ...(review?.recommendations ?? [])].slice(0, 500),
      minor_differences: [...results.minor_differences, ...(review?.note ? [review.note] : [])].slice(
        0,
        1000,
      ),
      viewport_images: viewportImages,
      engine: review?.engine
        ? `${measuredEngine} + AI visual review (${review.engine})`.slice(0, 200)
        : measuredEngine,
    });
    if (signal.aborted) throw new AbortedError();
    await this.deps.repos.designComparisons.addComparison(userId, {
      session_id: request.sessionId,
      comparison_type: request.source.type,
      website_url: request.websiteUrl,
      figma_url: request.source.type === 'figma' ? request.source.figmaUrl : null,
      file_id: request.source.type === 'image' ? request.source.fileId : null,
      results: final as unknown as Record<string, unknown>,
      images,
    });
    return final;
  }

  /**
   * The user's model's visual review of the widest compared viewport, when the user has a model that
   * sees images: its recommendations (marked as the model's), or a note saying why there are none. A
   * model that fails never fails the comparison, whose measured results stand on their own; a stop
   * does end it (the call is cancelled).
   */
  private async review(
    userId: string,
    request: Request,
    detailed: DetailedComparison,
    measured: { issues: ComparisonIssue[]; fixes: CssFix[] },
    signal: AbortSignal,
    progress: (percent: number, message: string) => void,
  ): Promise<{ recommendations?: ReviewRecommendation[]; engine?: string; note?: string } | null> {
    if (!this.deps.reviewModel) return null;
    const shown = detailed.viewports.filter((v) => v.images).sort((a, b) => b.width - a.width)[0];
    if (!shown?.images) return null;
    const unavailable = (error: unknown) => {
      if (error instanceof ModelError) {
        // The message is written for users and names no key; the error object is not logged, as the
        // SDK's errors beneath it carry the request (images, headers).
        this.deps.log.warn({ userId, code: error.code, reason: error.message }, 'design review unavailable');
        return { note: `${REVIEW_UNAVAILABLE}: ${error.message}` };
      }
      this.deps.log.warn({ userId, err: error }, 'design review failed');
      return { note: `${REVIEW_UNAVAILABLE}: the review could not be made.` };
    };
    let client: ModelClient | null;
    try {
      client = await this.deps.reviewModel(userId, { session_id: request.sessionId });
    } catch (error) {
      // The user chose a model that cannot be used as configured: say so beside the measured results.
      return unavailable(error);
    }
    if (!client || !seesImages(client.config)) return null;
    progress(90, `Asking ${client.engine} for a visual review`);
    try {
      const [site, design] = await Promise.all([
        forReview(shown.images.site),
        forReview(shown.images.design),
      ]);
      const review = await reviewDesign({
        client,
        viewports: [{ name: shown.name, width: shown.width, height: shown.comparedHeight, site, design }],
        measured: {
          overall_similarity: detailed.results.overall_similarity,
          issues: measured.issues.map((i) => i.issue),
          css_fixes: measured.fixes.length,
        },
        signal,
      });
      return { recommendations: review.recommendations, engine: review.engine };
    } catch (error) {
      if (signal.aborted || error instanceof AbortedError) throw error;
      return unavailable(error);
    }
  }

  /** An ImageLimitError as COMPARISON_TOO_LARGE, naming the setting when it is the configurable one. */
  private limitError(error: unknown): unknown {
    if (!(error instanceof ImageLimitError)) return error;
    const setting = error.limit === this.deps.config.comparisonMaxPixels ? ' (COMPARISON_MAX_PIXELS)' : '';
    return new AppError('COMPARISON_TOO_LARGE', `${error.message}${setting}.`);
  }

  /** A limit's refusal as a socket `error` (its code, feature design); false for anything else. */
  private refuseLimit(error: unknown, emit: Emit): boolean {
    const limit = this.limitError(error);
    if (!(limit instanceof AppError) || !LIMIT_CODES.has(limit.code)) return false;
    emit({ type: 'error', data: { message: problemText(limit), code: limit.code, feature: 'design' } });
    return true;
  }

  /** A refusal before the work started: `vision_comparison_error`, and for Figma access the modal's message. */
  private refuse(error: unknown, emit: Emit, figmaUrl: string | null): void {
    if (this.refuseLimit(error, emit)) return;
    if (error instanceof Refusal || error instanceof AppError) {
      emit({ type: 'vision_comparison_error', data: { error: problemText(error) } });
      return;
    }
    this.fail(error, emit, figmaUrl);
  }

  /** A failure of the work: in words the user can act on; Figma's permission refusal opens the sharing modal. */
  private fail(error: unknown, emit: Emit, figmaUrl: string | null): void {
    if (this.refuseLimit(error, emit)) return;
    if (error instanceof FigmaError) {
      if (error.code === 'permission') {
        emit({
          type: 'figma_permission_error',
          data: {
            ...figmaSharingInstructions({ figma_url: figmaUrl, error_context: 'permission' }),
            message: FIGMA_ACCESS_REQUIRED,
            detail: error.message,
            status: error.status ?? null,
          },
        });
        emit({ type: 'vision_comparison_error', data: { error: FIGMA_ACCESS_REQUIRED } });
        return;
      }
      emit({ type: 'vision_comparison_error', data: { error: error.message } });
      return;
    }
    if (error instanceof FrameSelectError || error instanceof Refusal || error instanceof AppError) {
      emit({ type: 'vision_comparison_error', data: { error: problemText(error) } });
      return;
    }
    const text = error instanceof Error ? error.message : String(error);
    this.deps.log.warn({ err: error }, 'design comparison failed');
    emit({ type: 'vision_comparison_error', data: { error: `The comparison failed: ${text}` } });
  }

  /** The stored comparison of a session, links signed afresh; undefined when it has none of the user's. */
  async stored(userId: string, sessionId: string) {
    const row = await this.deps.repos.designComparisons.latestForSession(userId, sessionId);
    if (!row) return undefined;
    const viewport_images = Object.fromEntries(
      Object.entries(row.images).map(([name, ids]) => [name, signedImages(this.deps.urls, userId, ids)]),
    );
    return {
      id: row.id,
      session_id: sessionId,
      comparison_type: row.comparison_type as 'figma' | 'image',
      website_url: row.website_url,
      figma_url: row.figma_url,
      file_id: row.file_id,
      results: { ...row.results, viewport_images },
      created_at: row.created_at.toISOString(),
    };
  }
}

/** A compared image as the review sends it: at most REVIEW_MAX_WIDTH wide, its top REVIEW_MAX_HEIGHT, JPEG. */
async function forReview(png: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(png, { limitInputPixels: MAX_VIEWPORT_PIXELS })
    .resize({ width: REVIEW_MAX_WIDTH, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .extract({ left: 0, top: 0, width: info.width, height: Math.min(info.height, REVIEW_MAX_HEIGHT) })
    .jpeg({ quality: 85 })
    .toBuffer();
}

function figmaUrlOf(request: Request): string | null {
  return request.source.type === 'figma' ? request.source.figmaUrl : null;
}

function signedImages(
  urls: SignedUrls,
  userId: string,
  ids: { site: string; design: string; width: number; height: number },
): ViewportImages {
  return {
    site_url: urls.design('comparison-image', ids.site, userId),
    design_url: urls.design('comparison-image', ids.design, userId),
    width: ids.width,
    height: ids.height,
  };
}

/** A Figma style difference as an issue of the list, beside the pixel comparison's. */
function styleIssue(difference: StyleDifference, viewport: string): ComparisonIssue {
  const what =
    difference.kind === 'typography' ? 'Typography' : difference.kind === 'color' ? 'Colour' : 'Spacing';
  return {
    issue: `${what} of \`${difference.selector}\` differs from Figma: ${difference.property}`.slice(0, 500),
    description:
      `The Figma layer "${difference.nodeName}" has ${difference.property}: ${difference.design}; the page (${viewport}) has ` +
      `${difference.site ?? 'none'}. Fix: ${difference.selector} { ${difference.property}: ${difference.design}; }`,
    kind: difference.kind,
    priority: difference.kind === 'spacing' ? 'low' : 'medium',
    element: difference.selector,
    location: {
      x: Math.max(0, difference.location.x),
      y: Math.max(0, difference.location.y),
      width: Math.max(0, difference.location.width),
      height: Math.max(0, difference.location.height),
      viewport,
    },
  };
}

/** A Figma failure that concerns one frame (it could not be chosen or rendered), not the file. */
function frameOnlyError(error: unknown): boolean {
  if (error instanceof FrameSelectError) return true;
  return error instanceof FigmaError && /could not render/.test(error.message);
}
