import { type ModelClient, ModelError, type ReviewRecommendation, reviewDesign, seesImages } from '@argus/ai';
import { type DetailedComparison, MAX_VIEWPORT_PIXELS } from '@argus/design-diff';
import { AbortedError } from '@argus/engine';
import type { ComparisonIssue, CssFix } from '@argus/protocol';
import sharp from 'sharp';
import type { ComparisonDeps, Progress } from './comparison-deps';

/** The start of the note a comparison carries when the user's model could not review it. */
export const REVIEW_UNAVAILABLE = 'AI visual review unavailable';
/**
 * The review's images are at most this size (pixels): a model is billed per pixel, and a long page's
 * top screens say what a reviewer needs; the measured comparison covers the rest.
 */
const REVIEW_MAX_WIDTH = 1280;
const REVIEW_MAX_HEIGHT = 2048;

/** What the review adds to the measured results: the model's recommendations, or a note why there are none. */
export interface Review {
  recommendations?: ReviewRecommendation[];
  engine?: string;
  note?: string;
}

/**
 * The user's model's visual review of the widest compared viewport, when the user has a model that
 * sees images: its recommendations (marked as the model's), or a note saying why there are none. A
 * model that fails never fails the comparison, whose measured results stand on their own; a stop
 * does end it (the call is cancelled).
 */
export async function reviewComparison(
  deps: Pick<ComparisonDeps, 'reviewModel' | 'log'>,
  userId: string,
  sessionId: string | null,
  detailed: DetailedComparison,
  measured: { issues: ComparisonIssue[]; fixes: CssFix[] },
  signal: AbortSignal,
  progress: Progress,
): Promise<Review | null> {
  if (!deps.reviewModel) return null;
  const shown = detailed.viewports.filter((v) => v.images).sort((a, b) => b.width - a.width)[0];
  if (!shown?.images) return null;
  const unavailable = (error: unknown) => {
    if (error instanceof ModelError) {
      // The message is written for users and names no key; the error object is not logged, as the
      // SDK's errors beneath it carry the request (images, headers).
      deps.log.warn({ userId, code: error.code, reason: error.message }, 'design review unavailable');
      return { note: `${REVIEW_UNAVAILABLE}: ${error.message}` };
    }
    deps.log.warn({ userId, err: error }, 'design review failed');
    return { note: `${REVIEW_UNAVAILABLE}: the review could not be made.` };
  };
  let client: ModelClient | null;
  try {
    client = await deps.reviewModel(userId, { session_id: sessionId });
  } catch (error) {
    // The user chose a model that cannot be used as configured: say so beside the measured results.
    return unavailable(error);
  }
  if (!client || !seesImages(client.config)) return null;
  progress(90, `Asking ${client.engine} for a visual review`);
  try {
    const [site, design] = await Promise.all([forReview(shown.images.site), forReview(shown.images.design)]);
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
