import { analyseRegion } from '../classify';
import { diffImages } from '../diff-kernel';
import { cropRect, cropTop, type RgbaImage } from '../image';
import { type Box, findRegions } from '../regions';
import { clearMasked } from './boxes';
import { describeAnalysis, pageSizeIssue, type VisualIssue } from './describe';
import { renderDiff } from './diff-image';
import { locateMoves } from './moves';

/**
 * How far a pixel's colour may move (the kernel's YIQ threshold, pixelmatch's scale) before it counts.
 * Lower than a design comparison's 0.1: both captures come from the same browser on the same machine,
 * so there is no rendering noise to forgive (anti-aliasing is told apart by the kernel anyway), and at
 * 0.1 a swap between two colours of the same brightness (teal #1f7a8c to green #2f7d4f) went unseen.
 */
const PIXEL_THRESHOLD = 0.05;

export interface BaselineComparisonInput {
  /** The approved capture. */
  baseline: RgbaImage;
  /** This run's capture of the same check (same viewport). */
  current: RgbaImage;
  /** Masks, in page coordinates: pixels inside never count (a clock, an ad slot, a user's rectangle). */
  ignore?: Box[];
  /** Share (0–1) of the compared pixels that may differ before the check counts as changed. @default 0 */
  threshold?: number;
  /** Located issues kept at most, largest first. @default 20 */
  maxIssues?: number;
}

export interface BaselineComparison {
  /** Whether the check needs a review: more than `threshold` of the pixels differ, or the page's size changed. */
  changed: boolean;
  /** Pixels that differ (anti-aliasing and masked pixels left out), plus those only one image has. */
  changedPixels: number;
  /** `changedPixels` over the pixels of the larger of the two images. */
  share: number;
  /** The differences, located and named, largest area first. */
  issues: VisualIssue[];
  /**
   * The highlighted difference for the review screen (diff-image.ts), drawn the first time it is
   * read: most checks pass and nobody looks at theirs.
   */
  readonly diff: RgbaImage;
}

/**
 * Compares this run's capture with the approved baseline: the overlap of the two is diffed by the
 * anti-aliasing aware kernel, masked pixels are cleared, and what is left is located (regions.ts),
 * named (classify.ts) and described. A page that grew or shrank gets one `size` issue for that, and
 * the rows only one image has count as differing.
 */
export function compareWithBaseline(input: BaselineComparisonInput): BaselineComparison {
  const { baseline, current } = input;
  const ignore = input.ignore ?? [];
  const threshold = input.threshold ?? 0;
  const width = Math.max(baseline.width, current.width);
  const height = Math.max(baseline.height, current.height);
  const total = width * height;
  const sizeIssue = pageSizeIssue(baseline, current);
  const picture = { current, ignore, width, height };

  // Most checks find the page as approved: identical bytes are answered by one memcmp.
  if (
    !sizeIssue &&
    Buffer.from(baseline.data.buffer, baseline.data.byteOffset, baseline.data.length).equals(
      Buffer.from(current.data.buffer, current.data.byteOffset, current.data.length),
    )
  )
    return result(false, 0, total, [], () =>
      renderDiff({ ...picture, mask: null, overlapWidth: width, overlapHeight: height }),
    );

  const overlapWidth = Math.min(baseline.width, current.width);
  const overlapHeight = Math.min(baseline.height, current.height);
  const a = overlap(baseline, overlapWidth, overlapHeight);
  const b = overlap(current, overlapWidth, overlapHeight);
  const diff = diffImages(a.data, b.data, overlapWidth, overlapHeight, { threshold: PIXEL_THRESHOLD });
  const counted = diff.count - clearMasked(diff.mask, overlapWidth, overlapHeight, ignore);
  const changedPixels = counted + (sizeIssue?.pixels ?? 0);
  const maxIssues = Math.max(1, input.maxIssues ?? 20);
  const located = counted > 0 ? locate(a, b, diff.mask, maxIssues - (sizeIssue ? 1 : 0)) : [];
  const issues = (sizeIssue ? [sizeIssue, ...located] : located).sort(byArea);
  const changed = !!sizeIssue || changedPixels / total > threshold;
  return result(changed, changedPixels, total, issues, () =>
    renderDiff({ ...picture, mask: diff.mask, overlapWidth, overlapHeight }),
  );
}

function result(
  changed: boolean,
  changedPixels: number,
  total: number,
  issues: VisualIssue[],
  draw: () => RgbaImage,
): BaselineComparison {
  let drawn: RgbaImage | null = null;
  return {
    changed,
    changedPixels,
    share: total ? changedPixels / total : 0,
    issues,
    get diff() {
      drawn ??= draw();
      return drawn;
    },
  };
}

/** The top-left `width` × `height` of an image: no copy when only rows are cut. */
function overlap(image: RgbaImage, width: number, height: number): RgbaImage {
  const top = cropTop(image, height);
  return top.width === width ? top : cropRect(top, { x: 0, y: 0, width, height });
}

/** The regions of the mask, moves merged, each named: the `max` with the most differing pixels. */
function locate(a: RgbaImage, b: RgbaImage, mask: Uint8Array, max: number): VisualIssue[] {
  if (max <= 0) return [];
  // Twice as many regions as kept are looked at, as a move's two strips become one issue.
  const regions = findRegions(mask, a.width, a.height)
    .sort((p, q) => q.pixels - p.pixels)
    .slice(0, max * 2);
  return locateMoves(a, b, regions)
    .sort((p, q) => q.region.pixels - p.region.pixels)
    .slice(0, max)
    .map(({ region, shift }) => {
      const analysis = analyseRegion(a, b, region, shift);
      const { pixels, ...box } = region;
      return { kind: analysis.kind, box, pixels, message: describeAnalysis(analysis) };
    });
}

const byArea = (p: VisualIssue, q: VisualIssue) => q.box.width * q.box.height - p.box.width * p.box.height;
