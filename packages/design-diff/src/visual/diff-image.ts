import type { RgbaImage } from '../image';
import type { Box } from '../regions';
import { clipBox } from './boxes';

// Pixels as little-endian Uint32 (0xAABBGGRR).
const rgba = (r: number, g: number, b: number) => (r | (g << 8) | (b << 16) | (255 << 24)) >>> 0;
/** A differing pixel, as pixelmatch draws it. */
const DIFFERENT = rgba(255, 0, 0);
/** A pixel that differs only by anti-aliasing (not counted), as pixelmatch draws it. */
const ANTIALIASED = rgba(255, 210, 0);
/** Rows or columns only one of the images has (the page grew or shrank). */
const ONLY_ONE = rgba(255, 170, 170);

/** What the highlight is drawn from: the compared overlap's mask and the current capture. */
export interface DiffPicture {
  current: RgbaImage;
  /** The diff kernel's mask over the overlap (`overlapWidth` × `overlapHeight`), masks cleared. */
  mask: Uint8Array | null;
  overlapWidth: number;
  overlapHeight: number;
  /** The larger of the two images' sizes: the picture's size. */
  width: number;
  height: number;
  ignore: Box[];
}

/**
 * The review screen's difference picture: the current capture faded to a light grey so the page is
 * still recognisable, differing pixels red, anti-aliasing yellow, masked boxes tinted blue (a
 * reviewer sees what was not compared) and what only one image has light red.
 */
export function renderDiff(p: DiffPicture): RgbaImage {
  const out = new Uint32Array(p.width * p.height).fill(ONLY_ONE);
  const cur = new Uint32Array(
    p.current.data.buffer,
    p.current.data.byteOffset,
    p.current.width * p.current.height,
  );
  for (let y = 0; y < p.overlapHeight; y++) {
    const row = y * p.width;
    const from = y * p.current.width;
    const maskRow = y * p.overlapWidth;
    for (let x = 0; x < p.overlapWidth; x++) {
      const m = p.mask ? p.mask[maskRow + x] : 0;
      if (m === 1) out[row + x] = DIFFERENT;
      else if (m === 2) out[row + x] = ANTIALIASED;
      else out[row + x] = faded(cur[from + x]);
    }
  }
  for (const raw of p.ignore) {
    const box = clipBox(raw, p.overlapWidth, p.overlapHeight);
    if (!box) continue;
    for (let y = box.y; y < box.y + box.height; y++)
      for (let i = y * p.width + box.x; i < y * p.width + box.x + box.width; i++) out[i] = tinted(out[i]);
  }
  return { data: new Uint8ClampedArray(out.buffer), width: p.width, height: p.height };
}

/** Each luminance blended 90% towards white (pixelmatch's `alpha` 0.1 for the unchanged), as a pixel. */
const FADED = Uint32Array.from({ length: 256 }, (_, luma) => {
  const v = Math.round(255 - (255 - luma) * 0.1);
  return rgba(v, v, v);
});

/** An unchanged pixel, faded (integer luminance weights: this runs for every pixel of the page). */
function faded(p: number): number {
  return FADED[((p & 0xff) * 77 + ((p >>> 8) & 0xff) * 150 + ((p >>> 16) & 0xff) * 29) >>> 8];
}

/** A masked pixel: the picture's own colour, shifted towards blue. */
function tinted(p: number): number {
  return rgba(((p & 0xff) * 0.7) | 0, (((p >>> 8) & 0xff) * 0.8) | 0, 255);
}
