import type { VisualBox } from '@argus/protocol';

// The masks and threshold of a check's settings (issue 40, docs/VISUAL-CHECKS.md): rectangles in the
// capture's pixels, drawn on the picture as shown (smaller or larger than the capture) or typed in; the
// threshold as a percentage on the screen and a share (0–0.5) in the API. No React here.

export interface Point {
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

/** Most masks a check keeps (`VisualCheckSettingsSchema`). */
export const MAX_MASKS = 50;
/** Smallest drag, in the capture's pixels, that makes a mask: a click is not a rectangle. */
export const MIN_MASK_SIZE = 4;
/** The highest threshold, in percent (the API's 0.5). */
export const MAX_THRESHOLD_PERCENT = 50;

/** The rectangle a drag from `a` to `b` spans, whichever way it went. */
export function dragRect(a: Point, b: Point): VisualBox {
  return {
    x: Math.min(a.x, b.x),
    y: Math.min(a.y, b.y),
    width: Math.abs(b.x - a.x),
    height: Math.abs(b.y - a.y),
  };
}

/** The part of a rectangle inside a picture of `size` (from 0, 0); null when nothing of it is. */
export function clampRect(rect: VisualBox, size: Size): VisualBox | null {
  const x0 = Math.max(0, rect.x);
  const y0 = Math.max(0, rect.y);
  const x1 = Math.min(size.width, rect.x + rect.width);
  const y1 = Math.min(size.height, rect.y + rect.height);
  if (x1 <= x0 || y1 <= y0) return null;
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * A rectangle on the picture as shown (`shown` pixels) in the capture's pixels (`capture`), whole
 * pixels covering it (the start rounded down, the end up), inside the capture. Null when either size
 * is empty or nothing of it falls inside.
 */
export function toCapture(rect: VisualBox, shown: Size, capture: Size): VisualBox | null {
  if (shown.width <= 0 || shown.height <= 0 || capture.width <= 0 || capture.height <= 0) return null;
  const sx = capture.width / shown.width;
  const sy = capture.height / shown.height;
  // A hair of tolerance, so 0.1 * 3 does not become one more pixel.
  const down = (v: number) => Math.floor(v + 1e-9);
  const up = (v: number) => Math.ceil(v - 1e-9);
  const x0 = down(rect.x * sx);
  const y0 = down(rect.y * sy);
  const x1 = up((rect.x + rect.width) * sx);
  const y1 = up((rect.y + rect.height) * sy);
  return clampRect({ x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, capture);
}

/** A rectangle of the capture on the picture as shown (for what a drag shows while it goes). */
export function toShown(rect: VisualBox, capture: Size, shown: Size): VisualBox | null {
  if (shown.width <= 0 || shown.height <= 0 || capture.width <= 0 || capture.height <= 0) return null;
  const sx = shown.width / capture.width;
  const sy = shown.height / capture.height;
  return { x: rect.x * sx, y: rect.y * sy, width: rect.width * sx, height: rect.height * sy };
}

/**
 * The mask a drag on the picture makes: from where it started to where it ended (both in the shown
 * picture's pixels, possibly outside it), clamped to the picture, in the capture's pixels. Null for a
 * click or a drag smaller than MIN_MASK_SIZE capture pixels either way.
 */
export function maskFromDrag(start: Point, end: Point, shown: Size, capture: Size): VisualBox | null {
  const inside = clampRect(dragRect(start, end), shown);
  if (!inside) return null;
  const mask = toCapture(inside, shown, capture);
  if (!mask || mask.width < MIN_MASK_SIZE || mask.height < MIN_MASK_SIZE) return null;
  return mask;
}

/**
 * Where a box of the capture falls on the picture as shown, in percentages of it (so it scales with the
 * shown size), clipped to the capture; null when nothing of it is inside.
 */
export function boxPercent(
  box: VisualBox,
  capture: Size,
): { left: string; top: string; width: string; height: string } | null {
  if (capture.width <= 0 || capture.height <= 0) return null;
  const inside = clampRect(box, capture);
  if (!inside) return null;
  const pct = (value: number, of: number) => `${Math.round((value / of) * 10_000) / 100}%`;
  return {
    left: pct(inside.x, capture.width),
    top: pct(inside.y, capture.height),
    width: pct(inside.width, capture.width),
    height: pct(inside.height, capture.height),
  };
}

export interface MaskFields {
  x: string;
  y: string;
  width: string;
  height: string;
}

export type MaskFieldErrors = Partial<Record<keyof MaskFields, string>>;

/**
 * The keyboard form's rectangle (x, y, width, height typed in the capture's pixels): whole numbers,
 * its corner inside the picture, at least 1 × 1; what reaches past the picture's edge is cut at it.
 */
export function parseMaskFields(
  fields: MaskFields,
  capture: Size,
): { mask: VisualBox; errors?: undefined } | { mask?: undefined; errors: MaskFieldErrors } {
  const errors: MaskFieldErrors = {};
  const read = (key: keyof MaskFields, min: number, max: number, name: string): number => {
    const text = fields[key].trim();
    const value = Number(text);
    if (text === '' || !Number.isInteger(value)) errors[key] = `Enter the ${name} in whole pixels`;
    else if (value < min || value > max) errors[key] = `Enter a ${name} from ${min} to ${max}`;
    return value;
  };
  const x = read('x', 0, Math.max(0, capture.width - 1), 'left edge (x)');
  const y = read('y', 0, Math.max(0, capture.height - 1), 'top edge (y)');
  const width = read('width', 1, capture.width, 'width');
  const height = read('height', 1, capture.height, 'height');
  if (Object.keys(errors).length > 0) return { errors };
  const mask = clampRect({ x, y, width, height }, capture);
  if (!mask) return { errors: { x: 'The rectangle is outside the picture' } };
  return { mask };
}

/** The threshold as the screen shows it: a share of the pixels (0–0.5) as a percentage (0–50), to 0.01. */
export function thresholdPercent(share: number): number {
  return Math.round(share * 10_000) / 100;
}

/** A percentage (0–50) as the API's share (0–0.5), without floating-point noise (2.5 → 0.025). */
export function thresholdShare(percent: number): number {
  return Math.round(percent * 100) / 10_000;
}

/** The threshold field's text as a share, or what is wrong with it. */
export function parseThreshold(
  text: string,
): { share: number; error?: undefined } | { share?: undefined; error: string } {
  const trimmed = text.trim().replace(',', '.');
  const value = Number(trimmed);
  if (trimmed === '' || !Number.isFinite(value) || value < 0 || value > MAX_THRESHOLD_PERCENT)
    return { error: `Enter a threshold from 0 to ${MAX_THRESHOLD_PERCENT}%` };
  return { share: thresholdShare(value) };
}

/** Whether two lists of masks are the same rectangles in the same order. */
export function sameMasks(a: readonly VisualBox[], b: readonly VisualBox[]): boolean {
  return (
    a.length === b.length &&
    a.every((m, i) => m.x === b[i].x && m.y === b[i].y && m.width === b[i].width && m.height === b[i].height)
  );
}

/** A mask in words: '120 × 40 at 10, 20' (capture pixels). */
export function maskText(mask: VisualBox): string {
  const r = (v: number) => Math.round(v);
  return `${r(mask.width)} × ${r(mask.height)} at ${r(mask.x)}, ${r(mask.y)}`;
}
