import type { RgbaImage } from './image';

export type Rgb = [number, number, number];
export type Lab = [number, number, number];

/** sRGB (0–255) to CIE L*a*b* (D65). */
export function rgbToLab([r, g, b]: Rgb): Lab {
  const lin = (c: number) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const R = lin(r);
  const G = lin(g);
  const B = lin(b);
  const x = (0.4124564 * R + 0.3575761 * G + 0.1804375 * B) / 0.95047;
  const y = 0.2126729 * R + 0.7151522 * G + 0.072175 * B;
  const z = (0.0193339 * R + 0.119192 * G + 0.9503041 * B) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const fx = f(x);
  const fy = f(y);
  const fz = f(z);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** CIEDE2000 colour difference (Sharma, Wu & Dalal 2005), kL = kC = kH = 1. */
export function ciede2000([L1, a1, b1]: Lab, [L2, a2, b2]: Lab): number {
  const deg = Math.PI / 180;
  const C1 = Math.hypot(a1, b1);
  const C2 = Math.hypot(a2, b2);
  const Cm = (C1 + C2) / 2;
  const Cm7 = Cm ** 7;
  const G = 0.5 * (1 - Math.sqrt(Cm7 / (Cm7 + 25 ** 7)));
  const a1p = (1 + G) * a1;
  const a2p = (1 + G) * a2;
  const C1p = Math.hypot(a1p, b1);
  const C2p = Math.hypot(a2p, b2);
  const hue = (b: number, a: number) => {
    if (b === 0 && a === 0) return 0;
    const h = Math.atan2(b, a) / deg;
    return h < 0 ? h + 360 : h;
  };
  const h1p = hue(b1, a1p);
  const h2p = hue(b2, a2p);
  const dLp = L2 - L1;
  const dCp = C2p - C1p;
  let dhp = 0;
  if (C1p * C2p !== 0) {
    dhp = h2p - h1p;
    if (dhp > 180) dhp -= 360;
    else if (dhp < -180) dhp += 360;
  }
  const dHp = 2 * Math.sqrt(C1p * C2p) * Math.sin((dhp / 2) * deg);
  const Lmp = (L1 + L2) / 2;
  const Cmp = (C1p + C2p) / 2;
  let hmp = h1p + h2p;
  if (C1p * C2p !== 0) {
    if (Math.abs(h1p - h2p) <= 180) hmp /= 2;
    else hmp = h1p + h2p < 360 ? (h1p + h2p + 360) / 2 : (h1p + h2p - 360) / 2;
  }
  const T =
    1 -
    0.17 * Math.cos((hmp - 30) * deg) +
    0.24 * Math.cos(2 * hmp * deg) +
    0.32 * Math.cos((3 * hmp + 6) * deg) -
    0.2 * Math.cos((4 * hmp - 63) * deg);
  const dTheta = 30 * Math.exp(-(((hmp - 275) / 25) ** 2));
  const Cmp7 = Cmp ** 7;
  const Rc = 2 * Math.sqrt(Cmp7 / (Cmp7 + 25 ** 7));
  const Sl = 1 + (0.015 * (Lmp - 50) ** 2) / Math.sqrt(20 + (Lmp - 50) ** 2);
  const Sc = 1 + 0.045 * Cmp;
  const Sh = 1 + 0.015 * Cmp * T;
  const Rt = -Math.sin(2 * dTheta * deg) * Rc;
  const l = dLp / Sl;
  const c = dCp / Sc;
  const h = dHp / Sh;
  return Math.sqrt(l * l + c * c + h * h + Rt * c * h);
}

export function deltaE(a: Rgb, b: Rgb): number {
  return ciede2000(rgbToLab(a), rgbToLab(b));
}

export function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

/** `rgb(1, 2, 3)` / `rgba(1, 2, 3, 0.5)` to its colour and alpha; null for anything else. */
export function parseCssColor(value: string): { rgb: Rgb; alpha: number } | null {
  const m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(
    value.trim(),
  );
  if (!m) return null;
  const alpha = m[4] === undefined ? 1 : m[4].endsWith('%') ? Number.parseFloat(m[4]) / 100 : Number(m[4]);
  return { rgb: [Number(m[1]), Number(m[2]), Number(m[3])], alpha };
}

export interface DominantColour {
  rgb: Rgb;
  /** Share of the region's pixels, 0–1. */
  share: number;
}

/**
 * The most frequent colours of a rectangle, most frequent first: pixels are binned at 5 bits a
 * channel and each bin answers the mean of its pixels, so a flat fill comes back exact.
 */
export function dominantColours(
  image: RgbaImage,
  box: { x: number; y: number; width: number; height: number },
  count = 4,
): DominantColour[] {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(image.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(image.height, Math.ceil(box.y + box.height));
  const bins = new Map<number, [number, number, number, number]>();
  let total = 0;
  const d = image.data;
  for (let y = y0; y < y1; y++) {
    for (let x = x0, p = (y * image.width + x0) * 4; x < x1; x++, p += 4) {
      const key = ((d[p] >> 3) << 10) | ((d[p + 1] >> 3) << 5) | (d[p + 2] >> 3);
      let bin = bins.get(key);
      if (!bin) {
        bin = [0, 0, 0, 0];
        bins.set(key, bin);
      }
      bin[0] += d[p];
      bin[1] += d[p + 1];
      bin[2] += d[p + 2];
      bin[3]++;
      total++;
    }
  }
  return [...bins.values()]
    .sort((a, b) => b[3] - a[3])
    .slice(0, count)
    .map(([r, g, b, n]) => ({
      rgb: [Math.round(r / n), Math.round(g / n), Math.round(b / n)] as Rgb,
      share: n / total,
    }));
}

/**
 * Mean CIEDE2000 between the two images' average colours over `block`×`block` cells (a perceptual
 * colour distance that ignores sub-pixel rendering noise), and the largest cell difference.
 */
export function blockColourDistance(a: RgbaImage, b: RgbaImage, block = 16): { mean: number; max: number } {
  const cols = Math.ceil(a.width / block);
  const rows = Math.ceil(a.height / block);
  const sums = new Float64Array(cols * 6);
  let total = 0;
  let max = 0;
  let cells = 0;
  const w = a.width;
  for (let r = 0; r < rows; r++) {
    sums.fill(0);
    const yEnd = Math.min(a.height, (r + 1) * block);
    for (let y = r * block; y < yEnd; y++) {
      let p = y * w * 4;
      for (let x = 0; x < w; x++, p += 4) {
        const s = ((x / block) | 0) * 6;
        sums[s] += a.data[p];
        sums[s + 1] += a.data[p + 1];
        sums[s + 2] += a.data[p + 2];
        sums[s + 3] += b.data[p];
        sums[s + 4] += b.data[p + 1];
        sums[s + 5] += b.data[p + 2];
      }
    }
    for (let c = 0; c < cols; c++) {
      const s = c * 6;
      const n = (Math.min(w, (c + 1) * block) - c * block) * (yEnd - r * block);
      cells++;
      if (sums[s] === sums[s + 3] && sums[s + 1] === sums[s + 4] && sums[s + 2] === sums[s + 5]) continue;
      const e = deltaE(
        [sums[s] / n, sums[s + 1] / n, sums[s + 2] / n],
        [sums[s + 3] / n, sums[s + 4] / n, sums[s + 5] / n],
      );
      total += e;
      if (e > max) max = e;
    }
  }
  return { mean: cells ? total / cells : 0, max };
}
