import type { ComparisonPriority } from '@argus/protocol';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Region extends Box {
  /** Differing pixels inside (mask value 1). */
  pixels: number;
}

export interface RegionOptions {
  /** The mask is read in cells of this many pixels a side: a cell with any difference is on. @default 8 */
  cell?: number;
  /** Boxes closer than this (pixels) are merged. @default 16 */
  gap?: number;
  /** Regions with fewer differing pixels are dropped as noise. @default 12 */
  minPixels?: number;
}

/**
 * Regions of difference: the mask is reduced to a grid of cells, 8-connected components of the grid
 * become boxes, and boxes that overlap or lie within `gap` of each other are merged until none do.
 */
export function findRegions(
  mask: Uint8Array,
  width: number,
  height: number,
  options: RegionOptions = {},
): Region[] {
  const cell = Math.max(1, options.cell ?? 8);
  const gap = options.gap ?? 16;
  const minPixels = options.minPixels ?? 12;
  const cols = Math.ceil(width / cell);
  const rows = Math.ceil(height / cell);
  const counts = new Uint32Array(cols * rows);
  for (let y = 0; y < height; y++) {
    const rowCell = ((y / cell) | 0) * cols;
    const base = y * width;
    for (let x = 0; x < width; x++) if (mask[base + x] === 1) counts[rowCell + ((x / cell) | 0)]++;
  }
  const label = new Int32Array(cols * rows).fill(-1);
  const boxes: Region[] = [];
  const stack: number[] = [];
  for (let start = 0; start < counts.length; start++) {
    if (counts[start] === 0 || label[start] !== -1) continue;
    const id = boxes.length;
    let minC = cols;
    let minR = rows;
    let maxC = -1;
    let maxR = -1;
    let pixels = 0;
    label[start] = id;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop()!;
      const c = i % cols;
      const r = (i - c) / cols;
      pixels += counts[i];
      if (c < minC) minC = c;
      if (c > maxC) maxC = c;
      if (r < minR) minR = r;
      if (r > maxR) maxR = r;
      for (let dr = -1; dr <= 1; dr++) {
        const rr = r + dr;
        if (rr < 0 || rr >= rows) continue;
        for (let dc = -1; dc <= 1; dc++) {
          const cc = c + dc;
          if (cc < 0 || cc >= cols) continue;
          const j = rr * cols + cc;
          if (counts[j] > 0 && label[j] === -1) {
            label[j] = id;
            stack.push(j);
          }
        }
      }
    }
    boxes.push({
      x: minC * cell,
      y: minR * cell,
      width: Math.min(width, (maxC + 1) * cell) - minC * cell,
      height: Math.min(height, (maxR + 1) * cell) - minR * cell,
      pixels,
    });
  }
  return mergeBoxes(boxes, gap).filter((r) => r.pixels >= minPixels);
}

/** Merges boxes that overlap or are within `gap` of each other, until none are. */
export function mergeBoxes(boxes: Region[], gap: number): Region[] {
  const list = boxes.map((b) => ({ ...b }));
  let merged = true;
  while (merged) {
    merged = false;
    for (let i = 0; i < list.length && !merged; i++) {
      for (let j = i + 1; j < list.length; j++) {
        if (!near(list[i], list[j], gap)) continue;
        const a = list[i];
        const b = list[j];
        const x = Math.min(a.x, b.x);
        const y = Math.min(a.y, b.y);
        list[i] = {
          x,
          y,
          width: Math.max(a.x + a.width, b.x + b.width) - x,
          height: Math.max(a.y + a.height, b.y + b.height) - y,
          pixels: a.pixels + b.pixels,
        };
        list.splice(j, 1);
        merged = true;
        break;
      }
    }
  }
  return list.sort((a, b) => a.y - b.y || a.x - b.x);
}

function near(a: Box, b: Box, gap: number): boolean {
  return (
    a.x - gap < b.x + b.width &&
    b.x - gap < a.x + a.width &&
    a.y - gap < b.y + b.height &&
    b.y - gap < a.y + a.height
  );
}

/** Area of the intersection of two boxes. */
export function intersection(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * High / Medium / Low from the region's share of the viewport (area) and how strong the difference
 * is (severity 0–1: e.g. the colour distance or the share of the box that differs).
 */
export function priorityOf(
  region: Box,
  viewport: { width: number; height: number },
  severity: number,
): ComparisonPriority {
  const share = (region.width * region.height) / (viewport.width * viewport.height);
  const weight = Math.sqrt(share) * (0.5 + severity);
  if (weight >= 0.12 || (share >= 0.01 && severity >= 0.6)) return 'high';
  if (weight >= 0.03 || severity >= 0.35) return 'medium';
  return 'low';
}
