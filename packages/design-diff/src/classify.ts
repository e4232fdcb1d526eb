import { deltaE, dominantColours, type Rgb } from './color';
import { yiqDelta } from './diff-kernel';
import type { RgbaImage } from './image';
import type { Box } from './regions';

/** What a region's difference looks like. */
export type DifferenceKind = 'colour' | 'shift' | 'size' | 'missing' | 'extra' | 'text';

export interface RegionAnalysis {
  kind: DifferenceKind;
  /** The content ("ink": what is not the surrounding background) in the design and on the site. */
  inkDesign: Box | null;
  inkSite: Box | null;
  /** Design position minus site position, when the content moved. */
  dx: number;
  dy: number;
  /** Most frequent ink colours, most frequent first. */
  colourDesign: Rgb | null;
  colourSite: Rgb | null;
  /** Background around the region in each. */
  backgroundDesign: Rgb;
  backgroundSite: Rgb;
  /** CIEDE2000 between the ink colours (or backgrounds), when the difference is colour. */
  colourDistance: number;
  /** 0–1: how strong the difference is (for the priority). */
  severity: number;
}

/** YIQ distance that counts as "not background" (pixelmatch's 0.1 threshold). */
const INK_DELTA = 35215 * 0.01;

/** A region whose difference mostly vanishes when the content is moved back counts as moved. */
export const MOVED_RESIDUAL = 0.25;

/** The colour most frequent along the box's border. */
function borderColour(img: RgbaImage, box: Box): Rgb {
  const counts = new Map<number, number>();
  const d32 = new Uint32Array(img.data.buffer, img.data.byteOffset, img.width * img.height);
  const add = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
    const v = d32[y * img.width + x];
    counts.set(v, (counts.get(v) ?? 0) + 1);
  };
  for (let x = box.x; x < box.x + box.width; x++) {
    add(x, box.y);
    add(x, box.y + box.height - 1);
  }
  for (let y = box.y; y < box.y + box.height; y++) {
    add(box.x, y);
    add(box.x + box.width - 1, y);
  }
  let best = 0xffffffff;
  let n = -1;
  for (const [v, c] of counts) if (c > n) [best, n] = [v, c];
  return [best & 0xff, (best >>> 8) & 0xff, (best >>> 16) & 0xff];
}

/** The bounding box and count of pixels that differ from `background` within `box`. */
function ink(img: RgbaImage, box: Box, background: Rgb): { box: Box | null; count: number } {
  const bg = (background[0] | (background[1] << 8) | (background[2] << 16) | (255 << 24)) >>> 0;
  const d32 = new Uint32Array(img.data.buffer, img.data.byteOffset, img.width * img.height);
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = -1;
  let y1 = -1;
  let count = 0;
  const xe = Math.min(img.width, box.x + box.width);
  const ye = Math.min(img.height, box.y + box.height);
  for (let y = Math.max(0, box.y); y < ye; y++) {
    for (let x = Math.max(0, box.x); x < xe; x++) {
      const p = d32[y * img.width + x];
      if (p === bg || yiqDelta(p, bg) <= INK_DELTA) continue;
      count++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return { box: count ? { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 } : null, count };
}

/** The most frequent colour among the pixels of `box` that are not `background`. */
function inkColour(img: RgbaImage, box: Box | null, background: Rgb): Rgb | null {
  if (!box) return null;
  const colours = dominantColours(img, box, 6);
  const found = colours.find((c) => deltaE(c.rgb, background) > 2);
  return found?.rgb ?? null;
}

/**
 * Classifies the difference in `region` (page coordinates, the same in both images) by comparing the
 * content against the background in the design and in the site capture.
 */
export function analyseRegion(
  design: RgbaImage,
  site: RgbaImage,
  region: Box,
  shift?: Shift | null,
): RegionAnalysis {
  const pad = 4;
  const box: Box = {
    x: Math.max(0, region.x - pad),
    y: Math.max(0, region.y - pad),
    width: Math.min(design.width, region.x + region.width + pad) - Math.max(0, region.x - pad),
    height: Math.min(design.height, region.y + region.height + pad) - Math.max(0, region.y - pad),
  };
  const backgroundDesign = borderColour(design, box);
  const backgroundSite = borderColour(site, box);
  const a = ink(design, box, backgroundDesign);
  const b = ink(site, box, backgroundSite);
  const colourDesign = inkColour(design, a.box, backgroundDesign);
  const colourSite = inkColour(site, b.box, backgroundSite);
  const base = {
    inkDesign: a.box,
    inkSite: b.box,
    dx: 0,
    dy: 0,
    colourDesign,
    colourSite,
    backgroundDesign,
    backgroundSite,
    colourDistance: 0,
  };
  if (shift && shift.residual <= MOVED_RESIDUAL) {
    const dx = 0 - shift.sx; // not -0
    const dy = 0 - shift.sy;
    return { ...base, kind: 'shift', dx, dy, severity: Math.min(1, 0.3 + Math.hypot(dx, dy) / 80) };
  }
  const area = box.width * box.height;
  if (a.count > 0.002 * area && b.count < 0.05 * a.count) return { ...base, kind: 'missing', severity: 1 };
  if (b.count > 0.002 * area && a.count < 0.05 * b.count) return { ...base, kind: 'extra', severity: 1 };
  const bgDistance = deltaE(backgroundDesign, backgroundSite);
  if (!a.box || !b.box) {
    return { ...base, kind: 'colour', colourDistance: bgDistance, severity: Math.min(1, bgDistance / 30) };
  }
  const sameWidth = Math.abs(a.box.width - b.box.width) <= 2;
  const sameHeight = Math.abs(a.box.height - b.box.height) <= 2;
  const dx = a.box.x - b.box.x;
  const dy = a.box.y - b.box.y;
  if (sameWidth && sameHeight && (Math.abs(dx) > 1 || Math.abs(dy) > 1)) {
    const severity = Math.min(1, 0.3 + Math.hypot(dx, dy) / 80);
    return { ...base, kind: 'shift', dx, dy, severity };
  }
  if (sameWidth && sameHeight) {
    const inkDistance = colourDesign && colourSite ? deltaE(colourDesign, colourSite) : 0;
    const distance = Math.max(inkDistance, bgDistance);
    if (distance > 2)
      return { ...base, kind: 'colour', colourDistance: distance, severity: Math.min(1, distance / 30) };
    return { ...base, kind: 'text', severity: 0.5 };
  }
  if (!sameHeight) {
    const ratio = Math.max(a.box.height / b.box.height, b.box.height / a.box.height);
    return { ...base, kind: 'size', dx, dy, severity: Math.min(1, 0.3 + (ratio - 1)) };
  }
  return { ...base, kind: 'text', dx, dy, severity: 0.5 };
}

/** Where the site shows the design's content of a region: site(x + sx, y + sy) = design(x, y). */
export interface Shift {
  sx: number;
  sy: number;
  /** Differing pixels left in the box once shifted, as a share of those before (0 a perfect move). */
  residual: number;
}

function lumaAt(img: RgbaImage, x: number, y: number): number {
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return 255;
  const p = (y * img.width + x) * 4;
  return 0.299 * img.data[p] + 0.587 * img.data[p + 1] + 0.114 * img.data[p + 2];
}

function bestOffset(a: Float64Array, b: Float64Array, length: number, max: number): number {
  // a and b start `max` before the box; compare a[i] with b[i + s] over the box.
  let best = 0;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let s = -max; s <= max; s++) {
    let cost = 0;
    for (let i = 0; i < length; i++) cost += Math.abs(a[max + i] - b[max + i + s]);
    // A tie keeps the smaller move.
    if (cost < bestCost - 1e-6 || (Math.abs(cost - bestCost) <= 1e-6 && Math.abs(s) < Math.abs(best))) {
      bestCost = cost;
      best = s;
    }
  }
  return best;
}

/**
 * Whether the region's content moved: row and column luminance profiles of the design and the site
 * are aligned (at most `max` pixels), and the move is checked by counting the pixels that still
 * differ once it is undone. Null when the region is too large to search or nothing moved.
 */
export function estimateShift(design: RgbaImage, site: RgbaImage, region: Box, max = 64): Shift | null {
  if (region.width * region.height > 1_500_000) return null;
  const x0 = region.x;
  const y0 = region.y;
  const w = region.width;
  const h = region.height;
  const rowsD = new Float64Array(h + 2 * max);
  const rowsS = new Float64Array(h + 2 * max);
  for (let i = 0; i < h + 2 * max; i++) {
    const y = y0 - max + i;
    let d = 0;
    let s = 0;
    for (let x = x0; x < x0 + w; x++) {
      d += lumaAt(design, x, y);
      s += lumaAt(site, x, y);
    }
    rowsD[i] = d;
    rowsS[i] = s;
  }
  const sy = bestOffset(rowsD, rowsS, h, max);
  const colsD = new Float64Array(w + 2 * max);
  const colsS = new Float64Array(w + 2 * max);
  for (let i = 0; i < w + 2 * max; i++) {
    const x = x0 - max + i;
    let d = 0;
    let s = 0;
    for (let y = y0; y < y0 + h; y++) {
      d += lumaAt(design, x, y);
      s += lumaAt(site, x, y + sy);
    }
    colsD[i] = d;
    colsS[i] = s;
  }
  const sx = bestOffset(colsD, colsS, w, max);
  if (sx === 0 && sy === 0) return null;
  const d32 = new Uint32Array(design.data.buffer, design.data.byteOffset, design.width * design.height);
  const s32 = new Uint32Array(site.data.buffer, site.data.byteOffset, site.width * site.height);
  let before = 0;
  let after = 0;
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) {
      const p = d32[y * design.width + x];
      const here = s32[y * site.width + x];
      if (p !== here && yiqDelta(p, here) > INK_DELTA) before++;
      const xs = x + sx;
      const ys = y + sy;
      const there =
        xs >= 0 && ys >= 0 && xs < site.width && ys < site.height ? s32[ys * site.width + xs] : 0xffffffff;
      if (p !== there && yiqDelta(p, there) > INK_DELTA) after++;
    }
  }
  if (before === 0) return null;
  return { sx, sy, residual: after / before };
}
