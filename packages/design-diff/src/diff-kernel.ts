/**
 * The pixel difference: pixelmatch's perceptual YIQ distance and its anti-aliasing detector
 * (Vysniauskas 2009), rewritten for opaque screenshots and for speed. Identical rows are skipped
 * by memcmp; colour work is done only where pixels differ.
 */

export interface DiffOptions {
  /** 0–1, as pixelmatch's: smaller is more sensitive. @default 0.1 */
  threshold?: number;
  /** Count anti-aliased pixels as differences too. @default false */
  includeAA?: boolean;
}

export interface DiffResult {
  /** Pixels that differ beyond the threshold and are not anti-aliasing. */
  count: number;
  /** Anti-aliased pixels left out. */
  antialiased: number;
  /** A byte per pixel: 0 same, 1 different, 2 different only by anti-aliasing. */
  mask: Uint8Array;
  /** Sum of the YIQ distances (0–1 each) of the pixels counted: `severity = sum / count`. */
  deltaSum: number;
}

/** The YIQ distance's maximum (pixelmatch). */
const MAX_YIQ = 35215;
/** Pixels skipped at once by memcmp within a row that differs. */
const CHUNK = 256;

/**
 * Compares two equally sized RGBA images (alpha is ignored: screenshots and flattened designs are
 * opaque). `a` and `b` must be `width * height * 4` bytes.
 */
export function diffImages(
  a: Uint8ClampedArray | Uint8Array,
  b: Uint8ClampedArray | Uint8Array,
  width: number,
  height: number,
  options: DiffOptions = {},
): DiffResult {
  const len = width * height;
  if (a.length !== len * 4 || b.length !== len * 4) throw new RangeError('Image sizes do not match');
  const threshold = options.threshold ?? 0.1;
  const maxDelta = MAX_YIQ * threshold * threshold;
  const includeAA = options.includeAA ?? false;
  const mask = new Uint8Array(len);
  const a32 = u32(a, len);
  const b32 = u32(b, len);
  let count = 0;
  let aa = 0;
  let deltaSum = 0;

  // Identical rows are skipped by the C library's memcmp (Buffer#compare with ranges allocates
  // nothing); a row that differs is scanned a pixel at a time, and colour work is done only where two
  // pixels differ.
  const ab = Buffer.from(a.buffer, a.byteOffset, a.length);
  const bb = Buffer.from(b.buffer, b.byteOffset, b.length);
  const rowBytes = width * 4;
  for (let y = 0; y < height; y++) {
    const rowStart = y * rowBytes;
    if (ab.compare(bb, rowStart, rowStart + rowBytes, rowStart, rowStart + rowBytes) === 0) continue;
    const base = y * width;
    const inner = y > 0 && y < height - 1;
    for (let x = 0; x < width; x++) {
      const i = base + x;
      // A whole chunk at a time by memcmp, at chunk starts.
      if ((x & (CHUNK - 1)) === 0 && x + CHUNK <= width) {
        const from = rowStart + x * 4;
        if (ab.compare(bb, from, from + CHUNK * 4, from, from + CHUNK * 4) === 0) {
          x += CHUNK - 1;
          continue;
        }
      }
      // Eight pixels at a time (at multiples of eight, so chunk starts are met) while all are equal.
      if (
        (x & 7) === 0 &&
        x + 8 <= width &&
        ((a32[i] ^ b32[i]) |
          (a32[i + 1] ^ b32[i + 1]) |
          (a32[i + 2] ^ b32[i + 2]) |
          (a32[i + 3] ^ b32[i + 3]) |
          (a32[i + 4] ^ b32[i + 4]) |
          (a32[i + 5] ^ b32[i + 5]) |
          (a32[i + 6] ^ b32[i + 6]) |
          (a32[i + 7] ^ b32[i + 7])) ===
          0
      ) {
        x += 7;
        continue;
      }
      const pa = a32[i];
      const pb = b32[i];
      if (pa === pb) continue;
      const delta = yiqDelta(pa, pb);
      if (delta <= maxDelta) continue;
      let excluded = false;
      if (!includeAA) {
        // A pixel with three equal neighbours among left, right, up and down is not anti-aliasing in
        // that image (pixelmatch's test stops at three equal neighbours too): most differing pixels
        // are decided here without the full test.
        const plain =
          inner &&
          x > 0 &&
          x < width - 1 &&
          sameAround(a32, i, width, pa) >= 3 &&
          sameAround(b32, i, width, pb) >= 3;
        excluded =
          !plain &&
          (antialiased(a32, b32, x, y, width, height) || antialiased(b32, a32, x, y, width, height));
      }
      if (excluded) {
        mask[i] = 2;
        aa++;
      } else {
        mask[i] = 1;
        count++;
        deltaSum += delta / MAX_YIQ;
      }
    }
  }
  return { count, antialiased: aa, mask, deltaSum };
}

function u32(data: Uint8ClampedArray | Uint8Array, len: number): Uint32Array {
  if (data.byteOffset % 4 === 0) return new Uint32Array(data.buffer, data.byteOffset, len);
  const copy = new Uint8Array(len * 4);
  copy.set(data);
  return new Uint32Array(copy.buffer);
}

// Little-endian: a Uint32 pixel is 0xAABBGGRR.
/** Squared YIQ distance of two opaque pixels (pixelmatch's metric without alpha blending). */
export function yiqDelta(pa: number, pb: number): number {
  const r1 = pa & 0xff;
  const g1 = (pa >>> 8) & 0xff;
  const b1 = (pa >>> 16) & 0xff;
  const r2 = pb & 0xff;
  const g2 = (pb >>> 8) & 0xff;
  const b2 = (pb >>> 16) & 0xff;
  const dr = r1 - r2;
  const dg = g1 - g2;
  const db = b1 - b2;
  const y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223;
  const i = dr * 0.59597799 - dg * 0.2741761 - db * 0.32180189;
  const q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694;
  return 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q;
}

/** How many of the four direct neighbours of pixel i (not on an edge) equal `v`. */
function sameAround(img: Uint32Array, i: number, w: number, v: number): number {
  return (
    (img[i - 1] === v ? 1 : 0) +
    (img[i + 1] === v ? 1 : 0) +
    (img[i - w] === v ? 1 : 0) +
    (img[i + w] === v ? 1 : 0)
  );
}

function luma(p: number): number {
  return (p & 0xff) * 0.29889531 + ((p >>> 8) & 0xff) * 0.58662247 + ((p >>> 16) & 0xff) * 0.11448223;
}

/** pixelmatch's `antialiased`, on Uint32 pixels. */
function antialiased(
  img: Uint32Array,
  other: Uint32Array,
  x1: number,
  y1: number,
  w: number,
  h: number,
): boolean {
  const x0 = x1 > 0 ? x1 - 1 : 0;
  const y0 = y1 > 0 ? y1 - 1 : 0;
  const x2 = x1 < w - 1 ? x1 + 1 : w - 1;
  const y2 = y1 < h - 1 ? y1 + 1 : h - 1;
  const centre = img[y1 * w + x1];
  const cy = luma(centre);
  let zeroes = x1 === x0 || x1 === x2 || y1 === y0 || y1 === y2 ? 1 : 0;
  let min = 0;
  let max = 0;
  let minX = 0;
  let minY = 0;
  let maxX = 0;
  let maxY = 0;
  for (let x = x0; x <= x2; x++) {
    for (let y = y0; y <= y2; y++) {
      if (x === x1 && y === y1) continue;
      const p = img[y * w + x];
      const delta = p === centre ? 0 : cy - luma(p);
      if (delta === 0) {
        zeroes++;
        if (zeroes > 2) return false;
      } else if (delta < min) {
        min = delta;
        minX = x;
        minY = y;
      } else if (delta > max) {
        max = delta;
        maxX = x;
        maxY = y;
      }
    }
  }
  if (min === 0 || max === 0) return false;
  return (
    (manySiblings(img, minX, minY, w, h) && manySiblings(other, minX, minY, w, h)) ||
    (manySiblings(img, maxX, maxY, w, h) && manySiblings(other, maxX, maxY, w, h))
  );
}

function manySiblings(img: Uint32Array, x1: number, y1: number, w: number, h: number): boolean {
  const x0 = x1 > 0 ? x1 - 1 : 0;
  const y0 = y1 > 0 ? y1 - 1 : 0;
  const x2 = x1 < w - 1 ? x1 + 1 : w - 1;
  const y2 = y1 < h - 1 ? y1 + 1 : h - 1;
  const val = img[y1 * w + x1];
  let zeroes = x1 === x0 || x1 === x2 || y1 === y0 || y1 === y2 ? 1 : 0;
  for (let x = x0; x <= x2; x++) {
    for (let y = y0; y <= y2; y++) {
      if (x === x1 && y === y1) continue;
      if (val === img[y * w + x]) zeroes++;
      if (zeroes > 2) return true;
    }
  }
  return false;
}
