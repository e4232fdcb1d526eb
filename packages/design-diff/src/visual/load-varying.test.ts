import type { VisualCaptureSession } from '@argus/engine';
import { describe, expect, it } from 'vitest';
import { encodePng, type RgbaImage } from '../image';
import type { Box } from '../regions';
import { learnLoadVarying } from './load-varying';

/** A 400×300 white page with a band drawn in `colour` at `band`. */
function page(band: Box, colour: [number, number, number]): RgbaImage {
  const img = { data: new Uint8ClampedArray(400 * 300 * 4).fill(255), width: 400, height: 300 };
  for (let y = band.y; y < band.y + band.height; y++)
    for (let x = band.x; x < band.x + band.width; x++) img.data.set(colour, (y * 400 + x) * 4);
  return img;
}

/** A session whose other loads answer these pages in turn (an Error: that load fails). */
function session(loads: (RgbaImage | Error)[]): VisualCaptureSession & { taken: number } {
  const s = {
    taken: 0,
    capturePage: () => Promise.reject(new Error('not used')),
    evaluate: () => Promise.reject(new Error('not used')),
    async captureAnotherLoad() {
      const next = loads[s.taken++];
      if (next instanceof Error) throw next;
      return { data: await encodePng(next), width: next.width, height: next.height, pageHeight: next.height };
    },
  };
  return s as unknown as VisualCaptureSession & { taken: number };
}

const BANNER: Box = { x: 0, y: 40, width: 400, height: 30 };
const signal = new AbortController().signal;
const covers = (boxes: Box[], b: Box) =>
  boxes.some(
    (m) => m.x <= b.x && m.y <= b.y && m.x + m.width >= b.x + b.width && m.y + m.height >= b.y + b.height,
  );

describe('learnLoadVarying', () => {
  it('masks a banner drawn another colour on another load, and nothing else', async () => {
    const learned = await learnLoadVarying(
      session([page(BANNER, [31, 122, 140]), page(BANNER, [196, 86, 47])]),
      page(BANNER, [196, 86, 47]),
      { loads: 2, settleMs: 0, signal },
    );
    expect(learned).toMatchObject({ loads: 2, capped: false });
    expect(covers(learned.boxes, BANNER)).toBe(true);
    const area = learned.boxes.reduce((sum, b) => sum + b.width * b.height, 0);
    expect(area).toBeLessThan(400 * 60);
  });

  it('stops taking loads once what is learned is enough', async () => {
    const other = session([page(BANNER, [31, 122, 140]), page(BANNER, [0, 0, 0])]);
    const learned = await learnLoadVarying(other, page(BANNER, [196, 86, 47]), {
      loads: 2,
      settleMs: 0,
      signal,
      enough: (boxes) => covers(boxes, BANNER),
    });
    expect([learned.loads, other.taken]).toEqual([1, 1]);
  });

  it('masks nothing when most of the page differs on another load (a state a load does not show)', async () => {
    const half: Box = { x: 0, y: 0, width: 400, height: 150 };
    const learned = await learnLoadVarying(session([page(half, [0, 0, 0])]), page(half, [250, 0, 0]), {
      loads: 1,
      settleMs: 0,
      signal,
    });
    expect(learned).toEqual({ boxes: [], loads: 1, capped: true });
  });

  it('keeps what it learned when a later load fails, and learns nothing from a session without other loads', async () => {
    const learned = await learnLoadVarying(
      session([page(BANNER, [31, 122, 140]), new Error('net::ERR_ABORTED')]),
      page(BANNER, [196, 86, 47]),
      { loads: 3, settleMs: 0, signal },
    );
    expect([learned.loads, covers(learned.boxes, BANNER)]).toEqual([1, true]);
    const bare = {
      capturePage: () => Promise.reject(),
      evaluate: () => Promise.reject(),
    } as unknown as VisualCaptureSession;
    expect(await learnLoadVarying(bare, page(BANNER, [0, 0, 0]), { loads: 3, settleMs: 0, signal })).toEqual({
      boxes: [],
      loads: 0,
      capped: false,
    });
  });
});
