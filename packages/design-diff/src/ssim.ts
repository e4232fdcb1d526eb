import type { RgbaImage } from './image';

/**
 * Structural similarity (Wang et al. 2004) on luminance, computed fast: both images are reduced to
 * luminance averaged over `scale`×`scale` blocks, then SSIM is taken in square box windows from
 * integral images (sums of x, y, x², y², xy), so the cost is a few passes over the reduced image.
 */
export interface SsimOptions {
  /** Block size of the reduction. @default 4 */
  scale?: number;
  /** Window side in reduced pixels. @default 8 */
  window?: number;
}

export interface SsimResult {
  /** Mean SSIM over the windows (1 for identical images). */
  mean: number;
  /** SSIM per window, row-major, `columns` × `rows`, windows stepping by half a window. */
  map: Float32Array;
  columns: number;
  rows: number;
  /** The size of one window in the images' own pixels. */
  cell: number;
  step: number;
}

const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;

/** Luminance averaged over `scale`×`scale` blocks (a ragged right / bottom edge is dropped). */
export function reducedLuma(
  image: RgbaImage,
  scale: number,
): { data: Float32Array; width: number; height: number } {
  const w = Math.max(1, Math.floor(image.width / scale));
  const h = Math.max(1, Math.floor(image.height / scale));
  const out = new Float32Array(w * h);
  const src = image.data;
  const iw = image.width;
  const norm = 1 / (scale * scale);
  for (let by = 0; by < h; by++) {
    const row = by * w;
    for (let sy = 0; sy < scale; sy++) {
      const y = by * scale + sy;
      if (y >= image.height) break;
      let p = y * iw * 4;
      for (let bx = 0; bx < w; bx++) {
        let s = 0;
        for (let sx = 0; sx < scale; sx++, p += 4)
          s += 0.299 * src[p] + 0.587 * src[p + 1] + 0.114 * src[p + 2];
        out[row + bx] += s;
      }
    }
    for (let bx = 0; bx < w; bx++) out[row + bx] *= norm;
  }
  return { data: out, width: w, height: h };
}

export function ssim(a: RgbaImage, b: RgbaImage, options: SsimOptions = {}): SsimResult {
  if (a.width !== b.width || a.height !== b.height) throw new RangeError('Image sizes do not match');
  const scale = Math.max(1, Math.floor(options.scale ?? 4));
  const la = reducedLuma(a, scale);
  const lb = reducedLuma(b, scale);
  const w = la.width;
  const h = la.height;
  const win = Math.max(2, Math.min(options.window ?? 8, w, h));
  const step = Math.max(1, win >> 1);
  // Integral images with a zero first row and column: (w+1)×(h+1).
  const W = w + 1;
  const sa = new Float64Array(W * (h + 1));
  const sb = new Float64Array(W * (h + 1));
  const saa = new Float64Array(W * (h + 1));
  const sbb = new Float64Array(W * (h + 1));
  const sab = new Float64Array(W * (h + 1));
  for (let y = 0; y < h; y++) {
    let ra = 0;
    let rb = 0;
    let raa = 0;
    let rbb = 0;
    let rab = 0;
    const src = y * w;
    const up = y * W + 1;
    const at = up + W;
    for (let x = 0; x < w; x++) {
      const va = la.data[src + x];
      const vb = lb.data[src + x];
      ra += va;
      rb += vb;
      raa += va * va;
      rbb += vb * vb;
      rab += va * vb;
      sa[at + x] = sa[up + x] + ra;
      sb[at + x] = sb[up + x] + rb;
      saa[at + x] = saa[up + x] + raa;
      sbb[at + x] = sbb[up + x] + rbb;
      sab[at + x] = sab[up + x] + rab;
    }
  }
  const columns = Math.max(1, Math.floor((w - win) / step) + 1);
  const rows = Math.max(1, Math.floor((h - win) / step) + 1);
  const map = new Float32Array(columns * rows);
  const n = win * win;
  let total = 0;
  for (let r = 0; r < rows; r++) {
    const y0 = r * step;
    const y1 = y0 + win;
    for (let c = 0; c < columns; c++) {
      const x0 = c * step;
      const x1 = x0 + win;
      const i00 = y0 * W + x0;
      const i01 = y0 * W + x1;
      const i10 = y1 * W + x0;
      const i11 = y1 * W + x1;
      const ma = (sa[i11] - sa[i01] - sa[i10] + sa[i00]) / n;
      const mb = (sb[i11] - sb[i01] - sb[i10] + sb[i00]) / n;
      const va = (saa[i11] - saa[i01] - saa[i10] + saa[i00]) / n - ma * ma;
      const vb = (sbb[i11] - sbb[i01] - sbb[i10] + sbb[i00]) / n - mb * mb;
      const cov = (sab[i11] - sab[i01] - sab[i10] + sab[i00]) / n - ma * mb;
      const s = ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      map[r * columns + c] = s;
      total += s;
    }
  }
  return { mean: total / map.length, map, columns, rows, cell: win * scale, step: step * scale };
}
