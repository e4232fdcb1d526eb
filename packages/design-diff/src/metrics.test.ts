import pixelmatch from 'pixelmatch';
import { describe, expect, it } from 'vitest';
import { ciede2000, dominantColours, rgbToLab } from './color';
import { diffImages } from './diff-kernel';
import type { RgbaImage } from './image';
import { findRegions, mergeBoxes, priorityOf } from './regions';
import { qualityRating, scoreViewport } from './scores';
import { ssim } from './ssim';

function solid(width: number, height: number, rgb: [number, number, number]): RgbaImage {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < data.length; i += 4) {
    data[i] = rgb[0];
    data[i + 1] = rgb[1];
    data[i + 2] = rgb[2];
    data[i + 3] = 255;
  }
  return { data, width, height };
}
function fill(img: RgbaImage, x0: number, y0: number, w: number, h: number, rgb: [number, number, number]) {
  for (let y = y0; y < y0 + h; y++)
    for (let x = x0; x < x0 + w; x++) img.data.set([...rgb, 255], (y * img.width + x) * 4);
}
const copy = (img: RgbaImage): RgbaImage => ({ ...img, data: new Uint8ClampedArray(img.data) });

/** A deterministic pseudo-random generator. */
function rng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
}

describe('the diff kernel', () => {
  it('finds no difference between identical images', () => {
    const a = solid(101, 57, [240, 240, 240]);
    fill(a, 10, 10, 30, 20, [20, 40, 200]);
    const r = diffImages(a.data, copy(a).data, a.width, a.height);
    expect(r.count).toBe(0);
    expect(r.mask.every((v) => v === 0)).toBe(true);
  });

  it('counts a known block of different pixels exactly, as pixelmatch does', () => {
    const a = solid(64, 48, [255, 255, 255]);
    const b = copy(a);
    fill(b, 5, 7, 10, 6, [200, 0, 0]); // 60 pixels, strong difference
    fill(b, 40, 30, 3, 3, [250, 250, 250]); // below the threshold
    const r = diffImages(a.data, b.data, a.width, a.height);
    expect(r.count).toBe(60);
    expect(r.count).toBe(pixelmatch(a.data, b.data, undefined, a.width, a.height, { threshold: 0.1 }));
    expect(r.mask[7 * 64 + 5]).toBe(1);
    expect(r.mask[30 * 64 + 40]).toBe(0);
  });

  it('does not count an anti-aliased edge', () => {
    // A dark square on white; in b its left edge is a column of grey (anti-aliasing of a sub-pixel shift).
    const a = solid(40, 40, [255, 255, 255]);
    fill(a, 10, 10, 20, 20, [0, 0, 0]);
    const b = copy(a);
    fill(b, 9, 10, 1, 20, [128, 128, 128]);
    const r = diffImages(a.data, b.data, a.width, a.height);
    expect(r.count).toBe(0);
    expect(r.antialiased).toBeGreaterThan(0);
    expect(diffImages(a.data, b.data, a.width, a.height, { includeAA: true }).count).toBe(20);
  });

  it('agrees with pixelmatch on noisy images', () => {
    const a = solid(200, 120, [250, 250, 250]);
    const b = copy(a);
    const rand = rng(7);
    for (let i = 0; i < 600; i++) {
      const x = Math.floor(rand() * 200);
      const y = Math.floor(rand() * 120);
      fill(b, x, y, 1, 1, [Math.floor(rand() * 255), Math.floor(rand() * 255), Math.floor(rand() * 255)]);
    }
    const ours = diffImages(a.data, b.data, 200, 120).count;
    const theirs = pixelmatch(a.data, b.data, undefined, 200, 120, { threshold: 0.1 });
    expect(ours).toBe(theirs);
  });
});

describe('SSIM', () => {
  it('is 1 for identical images and falls as noise grows', () => {
    const a = solid(256, 128, [128, 128, 128]);
    for (let x = 0; x < 256; x += 16) fill(a, x, 0, 8, 128, [30, 30, 30]);
    expect(ssim(a, copy(a)).mean).toBeCloseTo(1, 10);
    const values = [10, 40, 90].map((amount) => {
      const b = copy(a);
      const rand = rng(3);
      for (let i = 0; i < b.data.length; i += 4) {
        const n = (rand() - 0.5) * 2 * amount;
        for (let k = 0; k < 3; k++) b.data[i + k] = b.data[i + k] + n;
      }
      return ssim(a, b, { scale: 1 }).mean;
    });
    expect(values[0]).toBeLessThan(1);
    expect(values[1]).toBeLessThan(values[0]);
    expect(values[2]).toBeLessThan(values[1]);
  });
});

describe('CIEDE2000', () => {
  // Sharma, Wu & Dalal (2005), table 1: pairs 1, 2, 7, 13, 17, 19, 25, 34.
  const pairs: [[number, number, number], [number, number, number], number][] = [
    [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
    [[50, 3.1571, -77.2803], [50, 0, -82.7485], 2.8615],
    [[50, 0, 0], [50, -1, 2], 2.3669],
    [[50, 2.49, -0.001], [50, -2.49, 0.0009], 7.1792],
    [[50, 2.5, 0], [73, 25, -18], 27.1492],
    [[50, 2.5, 0], [50, 3.1736, 0.5854], 1.0],
    [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
    [[2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514], 0.9082],
  ];
  it.each(pairs)('ΔE00 of %j and %j is %d', (a, b, expected) => {
    expect(ciede2000(a, b)).toBeCloseTo(expected, 4);
    expect(ciede2000(b, a)).toBeCloseTo(expected, 4);
  });

  it('converts sRGB white and black to L* 100 and 0', () => {
    expect(rgbToLab([255, 255, 255])[0]).toBeCloseTo(100, 2);
    expect(rgbToLab([0, 0, 0])[0]).toBeCloseTo(0, 5);
  });

  it('answers the dominant colours of a region exactly for flat fills', () => {
    const img = solid(50, 50, [37, 99, 235]);
    fill(img, 0, 0, 50, 10, [255, 255, 255]);
    const d = dominantColours(img, { x: 0, y: 0, width: 50, height: 50 });
    expect(d[0]).toEqual({ rgb: [37, 99, 235], share: 0.8 });
    expect(d[1].rgb).toEqual([255, 255, 255]);
  });
});

describe('regions', () => {
  it('finds separate components and merges those close together', () => {
    const w = 200;
    const h = 100;
    const mask = new Uint8Array(w * h);
    const mark = (x0: number, y0: number, bw: number, bh: number) => {
      for (let y = y0; y < y0 + bh; y++) for (let x = x0; x < x0 + bw; x++) mask[y * w + x] = 1;
    };
    mark(10, 10, 20, 10); // these two are 6 px apart: one region
    mark(36, 10, 10, 10);
    mark(150, 70, 20, 20); // far away: its own region
    mark(100, 5, 1, 1); // a lone pixel: noise
    const regions = findRegions(mask, w, h, { cell: 4, gap: 8, minPixels: 12 });
    expect(regions).toHaveLength(2);
    expect(regions[0]).toMatchObject({ x: 8, y: 8, pixels: 300 });
    expect(regions[0].x + regions[0].width).toBeGreaterThanOrEqual(46);
    expect(regions[1]).toMatchObject({ x: 148, y: 68, pixels: 400 });
  });

  it('merges chains of boxes transitively', () => {
    const boxes = [0, 30, 60].map((x) => ({ x, y: 0, width: 20, height: 20, pixels: 1 }));
    expect(mergeBoxes(boxes, 12)).toEqual([{ x: 0, y: 0, width: 80, height: 20, pixels: 3 }]);
  });

  it('rates large, strong differences high and small, faint ones low', () => {
    const vp = { width: 1920, height: 1080 };
    expect(priorityOf({ x: 0, y: 0, width: 600, height: 400 }, vp, 0.8)).toBe('high');
    expect(priorityOf({ x: 0, y: 0, width: 20, height: 10 }, vp, 0.05)).toBe('low');
  });
});

describe('scores', () => {
  const none = { diffRatio: 0, ssim: 1, colourDistance: 0, heightMismatch: 0, categoryArea: {} };
  it('are 100 for identical images', () => {
    const s = scoreViewport(none);
    expect(s.overall).toBe(100);
    expect(Object.values(s.categories).every((v) => v === 100)).toBe(true);
    expect(qualityRating(s.overall)).toBe('Excellent');
  });

  it('fall monotonically as differences grow', () => {
    const steps = [0, 0.01, 0.05, 0.2, 0.5];
    const overall = steps.map(
      (t) =>
        scoreViewport({
          diffRatio: t,
          ssim: 1 - t,
          colourDistance: t * 20,
          heightMismatch: t / 2,
          categoryArea: { layout: t, color: t, content: t },
        }).overall,
    );
    for (let i = 1; i < overall.length; i++) expect(overall[i]).toBeLessThan(overall[i - 1]);
    for (const key of ['diffRatio', 'colourDistance', 'heightMismatch'] as const) {
      const a = scoreViewport({ ...none, [key]: 0.1 }).overall;
      const b = scoreViewport({ ...none, [key]: 0.3 }).overall;
      expect(b).toBeLessThan(a);
    }
    expect(qualityRating(80)).toBe('Good');
    expect(qualityRating(65)).toBe('Fair');
    expect(qualityRating(10)).toBe('Poor');
  });
});
