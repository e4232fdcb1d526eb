import { describe, expect, it } from 'vitest';
import type { RgbaImage } from '../image';
import { type Box, intersection } from '../regions';
import { compareWithBaseline } from './compare-baseline';

type Rgb = [number, number, number];

/** Paints a rectangle, blended by `cover` (0–1) over what is there: partial cover is anti-aliasing. */
function paint(img: RgbaImage, box: Box, colour: Rgb, cover = 1): void {
  for (let y = box.y; y < box.y + box.height; y++)
    for (let x = box.x; x < box.x + box.width; x++) {
      const i = (y * img.width + x) * 4;
      for (let k = 0; k < 3; k++)
        img.data[i + k] = Math.round(img.data[i + k] * (1 - cover) + colour[k] * cover);
    }
}

const A: Box = { x: 100, y: 150, width: 200, height: 80 };
const B: Box = { x: 400, y: 150, width: 200, height: 80 };
const C: Box = { x: 700, y: 150, width: 200, height: 80 };
const GREEN: Rgb = [67, 160, 71];

interface Planted {
  height?: number;
  withoutA?: boolean;
  colourOfB?: Rgb;
  /** How far C is drawn below its place. */
  moveC?: number;
  /** Where the scaled image's left edge falls within its first pixel column (0–1). */
  imageEdge?: number;
}

/**
 * A 1440 px page drawn in code: a header bar, three coloured boxes, a block of text-like glyph rows,
 * and a "scaled image" (a gradient whose left edge falls between pixels, so its first column is
 * anti-aliased as a browser's image scaling leaves it).
 */
function page(planted: Planted = {}): RgbaImage {
  const height = planted.height ?? 900;
  const img = { data: new Uint8ClampedArray(1440 * height * 4).fill(255), width: 1440, height };
  paint(img, { x: 0, y: 0, width: 1440, height: 64 }, [30, 58, 138]);
  if (!planted.withoutA) paint(img, A, [30, 136, 229]);
  paint(img, B, planted.colourOfB ?? GREEN);
  paint(img, { ...C, y: C.y + (planted.moveC ?? 0) }, [251, 140, 0]);
  for (let line = 0; line < 4; line++)
    for (let glyph = 0; glyph < 60; glyph++)
      if ((glyph * 7 + line) % 9)
        paint(img, { x: 100 + glyph * 10, y: 320 + line * 20, width: 7, height: 12 }, [33, 33, 33]);
  const edge = planted.imageEdge ?? 0.2;
  for (let y = 300; y < 420; y++) {
    const colour: Rgb = [40 + (y - 300), 90, 160];
    paint(img, { x: 1000, y, width: 1, height: 1 }, colour, 1 - edge);
    paint(img, { x: 1001, y, width: 200, height: 1 }, colour);
  }
  return img;
}

const overlaps = (a: Box, b: Box) => intersection(a, b) > 0;

describe('compareWithBaseline', () => {
  it('finds two separately drawn identical pages unchanged, with no issues', () => {
    const result = compareWithBaseline({ baseline: page(), current: page() });
    expect(result).toMatchObject({ changed: false, changedPixels: 0, share: 0, issues: [] });
  });

  it('reports a box whose colour changed as one colour issue at that box', () => {
    const result = compareWithBaseline({ baseline: page(), current: page({ colourOfB: [120, 120, 120] }) });
    expect(result.changed).toBe(true);
    expect(result.changedPixels).toBe(B.width * B.height);
    expect(result.issues).toHaveLength(1);
    const [issue] = result.issues;
    expect(issue.kind).toBe('colour');
    expect(intersection(issue.box, B)).toBe(B.width * B.height);
    expect(issue.message).toBe('colour changed from #43a047 to #787878');
  });

  it('sees a swap between two colours of the same brightness (teal to green)', () => {
    const teal: Rgb = [31, 122, 140];
    const result = compareWithBaseline({
      baseline: page({ colourOfB: teal }),
      current: page({ colourOfB: [47, 125, 79] }),
    });
    expect(result.changed).toBe(true);
    expect(result.issues.map((issue) => [issue.kind, issue.message])).toEqual([
      ['colour', 'colour changed from #1f7a8c to #2f7d4f'],
    ]);
  });

  it('reports a box moved 12 px down as one shift issue at it', () => {
    const result = compareWithBaseline({ baseline: page(), current: page({ moveC: 12 }) });
    expect(result.changed).toBe(true);
    expect(result.issues).toHaveLength(1);
    const [issue] = result.issues;
    expect(issue.kind).toBe('shift');
    expect(issue.message).toBe('moved 12 px down');
    expect(overlaps(issue.box, C)).toBe(true);
    expect(overlaps(issue.box, B)).toBe(false);
  });

  it('reports a box moved 8 px up onto the 8-pixel grid as one shift issue too', () => {
    const baseline = page();
    const current = page();
    // C's block redrawn 8 px higher: its edges now fall on the region grid's lines.
    paint(current, C, [255, 255, 255]);
    paint(current, { ...C, y: C.y - 6 }, [251, 140, 0]);
    paint(baseline, C, [255, 255, 255]);
    paint(baseline, { ...C, y: C.y + 2 }, [251, 140, 0]);
    const result = compareWithBaseline({ baseline, current });
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]).toMatchObject({ kind: 'shift', message: 'moved 8 px up' });
  });

  it('reports a removed box as missing at its place', () => {
    const result = compareWithBaseline({ baseline: page(), current: page({ withoutA: true }) });
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]).toMatchObject({ kind: 'missing', message: 'missing' });
    expect(intersection(result.issues[0].box, A)).toBe(A.width * A.height);
  });

  it('leaves out a change inside a masked region, and still sees one outside it', () => {
    const current = page({ colourOfB: [120, 120, 120], withoutA: true });
    const result = compareWithBaseline({ baseline: page(), current, ignore: [B] });
    expect(result.changedPixels).toBe(A.width * A.height);
    expect(result.issues.map((i) => i.kind)).toEqual(['missing']);
    const onlyB = compareWithBaseline({
      baseline: page(),
      current: page({ colourOfB: [1, 2, 3] }),
      ignore: [B],
    });
    expect(onlyB).toMatchObject({ changed: false, changedPixels: 0, issues: [] });
  });

  it('counts the check changed only when the differing share passes the threshold', () => {
    const input = { baseline: page(), current: page({ colourOfB: [120, 120, 120] }) };
    const share = (B.width * B.height) / (1440 * 900);
    const under = compareWithBaseline({ ...input, threshold: share * 1.01 });
    const over = compareWithBaseline({ ...input, threshold: share * 0.99 });
    expect(under.share).toBeCloseTo(share, 10);
    expect(under.changed).toBe(false);
    expect(over.changed).toBe(true);
    // The issues are located either way: a reviewer may look at what stayed under the threshold.
    expect(under.issues).toHaveLength(1);
  });

  it('reports a page 40 px taller as one size issue over the new rows, the rest compared as usual', () => {
    const result = compareWithBaseline({ baseline: page(), current: page({ height: 940 }) });
    expect(result.changed).toBe(true);
    expect(result.issues).toEqual([
      {
        kind: 'size',
        box: { x: 0, y: 900, width: 1440, height: 40 },
        pixels: 1440 * 40,
        message: 'page is 40 px taller',
      },
    ]);
    expect(result.share).toBeCloseTo((1440 * 40) / (1440 * 940), 10);
    // A size issue whatever the threshold: the page is not the one approved.
    expect(
      compareWithBaseline({ baseline: page({ height: 940 }), current: page(), threshold: 0.5 }),
    ).toMatchObject({
      changed: true,
      issues: [{ kind: 'size', message: 'page is 40 px shorter' }],
    });
  });

  it('does not report a 1-px anti-aliased edge change of a scaled image', () => {
    const baseline = page({ imageEdge: 0.2 });
    const current = page({ imageEdge: 0.7 });
    // The edge column does differ in bytes: only the anti-aliasing test keeps it out.
    expect(Buffer.from(baseline.data).equals(Buffer.from(current.data))).toBe(false);
    expect(compareWithBaseline({ baseline, current })).toMatchObject({
      changed: false,
      changedPixels: 0,
      issues: [],
    });
  });

  it('draws the difference picture with differing pixels red and masked ones tinted blue', () => {
    const result = compareWithBaseline({
      baseline: page(),
      current: page({ colourOfB: [120, 120, 120], withoutA: true }),
      ignore: [B],
    });
    const { diff } = result;
    expect([diff.width, diff.height]).toEqual([1440, 900]);
    const at = (x: number, y: number) => [...diff.data.subarray((y * 1440 + x) * 4, (y * 1440 + x) * 4 + 4)];
    expect(at(A.x + 10, A.y + 10)).toEqual([255, 0, 0, 255]);
    const masked = at(B.x + 10, B.y + 10);
    expect(masked[2]).toBe(255);
    expect(masked[0]).toBeLessThan(masked[2]);
    // Unchanged pixels are a light grey: the page is recognisable behind the highlight.
    const white = at(10, 800);
    expect(white[0]).toBe(white[1]);
    expect(white[0]).toBeGreaterThan(200);
  });

  it('caps the located issues at maxIssues, keeping the largest', () => {
    const baseline = page();
    const current = page();
    for (let i = 0; i < 6; i++)
      paint(current, { x: 60 + i * 220, y: 600, width: 20 + i * 20, height: 40 }, [200, 0, 0]);
    const result = compareWithBaseline({ baseline, current, maxIssues: 3 });
    expect(result.issues.map((i) => i.box.width * i.box.height)).toEqual(
      [...result.issues.map((i) => i.box.width * i.box.height)].sort((p, q) => q - p),
    );
    expect(result.issues).toHaveLength(3);
    expect(result.issues.every((i) => i.kind === 'extra' && i.box.x >= 60 + 3 * 220 - 8)).toBe(true);
  });
});
