import type { DifferenceKind, RegionAnalysis } from '../classify';
import type { Rgb } from '../color';
import type { Box } from '../regions';

/** One located difference between the approved baseline and the current capture. */
export interface VisualIssue {
  kind: DifferenceKind;
  /** Where, in page coordinates (the same in both images). */
  box: Box;
  /** Differing pixels inside (for a change of the page's size: the pixels only one image has). */
  pixels: number;
  /** A short sentence for people: "colour changed from #1e88e5 to #9e9e9e", "moved 12 px down". */
  message: string;
}

const hex = (c: Rgb) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/** "12 px down and 3 px left": how the content moved from the baseline to the current capture. */
function moveText(dx: number, dy: number): string {
  // The analysis gives baseline position minus current position.
  const parts = [
    dy ? `${Math.abs(dy)} px ${dy < 0 ? 'down' : 'up'}` : '',
    dx ? `${Math.abs(dx)} px ${dx < 0 ? 'right' : 'left'}` : '',
  ].filter(Boolean);
  return parts.length ? `moved ${parts.join(' and ')}` : 'moved';
}

/** The sentence for a region's analysis (classify.ts), baseline as the "design" and current as the "site". */
export function describeAnalysis(analysis: RegionAnalysis): string {
  switch (analysis.kind) {
    case 'colour': {
      // The colour that changed: a region's box often takes in a few rows of what is around it, and
      // its "ink" (its least common colour) may then be a neighbour's colour, the same in both.
      const { colourDesign: inkBefore, colourSite: inkAfter } = analysis;
      const inkChanged = inkBefore && inkAfter && hex(inkBefore) !== hex(inkAfter);
      const before = inkChanged ? inkBefore : analysis.backgroundDesign;
      const after = inkChanged ? inkAfter : analysis.backgroundSite;
      return `colour changed from ${hex(before)} to ${hex(after)}`;
    }
    case 'shift':
      return moveText(analysis.dx, analysis.dy);
    case 'size': {
      const a = analysis.inkDesign;
      const b = analysis.inkSite;
      return a && b
        ? `size changed from ${a.width}×${a.height} to ${b.width}×${b.height} px`
        : 'size changed';
    }
    case 'missing':
      return 'missing';
    case 'extra':
      return 'new content';
    default:
      return 'content changed';
  }
}

/** The one issue for a page that grew or shrank: the rows or columns only one of the images has. */
export function pageSizeIssue(
  baseline: { width: number; height: number },
  current: { width: number; height: number },
): VisualIssue | null {
  const dw = current.width - baseline.width;
  const dh = current.height - baseline.height;
  if (!dw && !dh) return null;
  const parts = [
    dh ? `${Math.abs(dh)} px ${dh > 0 ? 'taller' : 'shorter'}` : '',
    dw ? `${Math.abs(dw)} px ${dw > 0 ? 'wider' : 'narrower'}` : '',
  ].filter(Boolean);
  const width = Math.min(baseline.width, current.width);
  const height = Math.min(baseline.height, current.height);
  // The box covers what only the larger image has, below (and right of) the compared overlap.
  const box = dh
    ? { x: 0, y: height, width: Math.max(baseline.width, current.width), height: Math.abs(dh) }
    : { x: width, y: 0, width: Math.abs(dw), height };
  const pixels = baseline.width * baseline.height + current.width * current.height - 2 * width * height;
  return { kind: 'size', box, pixels, message: `page is ${parts.join(' and ')}` };
}
