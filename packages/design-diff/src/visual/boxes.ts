import { yiqDelta } from '../diff-kernel';
import type { RgbaImage } from '../image';
import { type Box, mergeBoxes } from '../regions';

/** A box cut to `width` × `height` (whole pixels), or null when nothing of it is inside. */
export function clipBox(box: Box, width: number, height: number): Box | null {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(width, Math.ceil(box.x + box.width));
  const y1 = Math.min(height, Math.ceil(box.y + box.height));
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

/** The box grown by `margin` on every side, cut to the image. */
export function growBox(box: Box, margin: number, width: number, height: number): Box | null {
  return clipBox(
    { x: box.x - margin, y: box.y - margin, width: box.width + 2 * margin, height: box.height + 2 * margin },
    width,
    height,
  );
}

/** Boxes that overlap or touch, merged into one (a mask is easier to read as few boxes). */
export function unionBoxes(boxes: Box[]): Box[] {
  return mergeBoxes(
    boxes.map((b) => ({ ...b, pixels: 0 })),
    0,
  ).map(({ x, y, width, height }) => ({ x, y, width, height }));
}

/**
 * Clears the diff mask inside the ignored boxes and answers how many counted differences (mask value
 * 1) it cleared: a masked pixel must never count, neither in the share nor as a region.
 */
export function clearMasked(mask: Uint8Array, width: number, height: number, ignore: Box[]): number {
  let cleared = 0;
  for (const raw of ignore) {
    const box = clipBox(raw, width, height);
    if (!box) continue;
    for (let y = box.y; y < box.y + box.height; y++) {
      const row = y * width;
      for (let i = row + box.x; i < row + box.x + box.width; i++) {
        if (mask[i] === 1) cleared++;
        mask[i] = 0;
      }
    }
  }
  return cleared;
}

/** YIQ distance under which a column still counts as plain background (pixelmatch's 0.05 threshold). */
const PLAIN_DELTA = 35215 * 0.05 * 0.05;
/** Whether every pixel of the box (inside the image) is within PLAIN_DELTA of its first: nothing drawn there. */
export function isPlain(image: RgbaImage, box: Box): boolean {
  const inside = clipBox(box, image.width, image.height);
  if (!inside) return true;
  const d32 = new Uint32Array(image.data.buffer, image.data.byteOffset, image.width * image.height);
  const first = d32[inside.y * image.width + inside.x];
  for (let y = inside.y; y < inside.y + inside.height; y++)
    for (let i = y * image.width + inside.x; i < y * image.width + inside.x + inside.width; i++)
      if (d32[i] !== first && yiqDelta(d32[i], first) > PLAIN_DELTA) return false;
  return true;
}

/** Plain columns a text line may have between two words or digits. */
const WORD_GAP = 10;
/** How far a box may be widened on each side, in multiples of its height (a long clock line). */
const MAX_REACH = 8;

/**
 * A moving region widened to the line of content it sits in. Over a short gap only the digits that
 * ticked differ (the seconds of a clock), but the others (its minutes) change later: the line's
 * neighbouring columns that hold content, up to WORD_GAP plain columns apart, are masked with it.
 */
export function widenToLine(image: RgbaImage, box: Box): Box {
  const reach = Math.max(box.height, 8) * MAX_REACH;
  const d32 = new Uint32Array(image.data.buffer, image.data.byteOffset, image.width * image.height);
  const plain = (x: number) => {
    const first = d32[box.y * image.width + x];
    for (let y = box.y + 1; y < box.y + box.height; y++) {
      const p = d32[y * image.width + x];
      if (p !== first && yiqDelta(p, first) > PLAIN_DELTA) return false;
    }
    return true;
  };
  const walk = (from: number, step: 1 | -1) => {
    let edge = from;
    let gap = 0;
    for (let x = from + step; x >= 0 && x < image.width && Math.abs(x - from) <= reach; x += step) {
      if (plain(x)) {
        if (++gap > WORD_GAP) break;
      } else {
        gap = 0;
        edge = x;
      }
    }
    return edge;
  };
  const left = walk(box.x, -1);
  const right = walk(box.x + box.width - 1, 1);
  return { x: left, y: box.y, width: right - left + 1, height: box.height };
}
