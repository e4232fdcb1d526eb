import { describe, expect, it } from 'vitest';
import {
  boxPercent,
  clampRect,
  dragRect,
  maskFromDrag,
  maskText,
  parseMaskFields,
  parseThreshold,
  sameMasks,
  thresholdPercent,
  thresholdShare,
  toCapture,
  toShown,
} from './masks';

const CAPTURE = { width: 1440, height: 900 };
/** The capture shown at half its size. */
const HALF = { width: 720, height: 450 };

describe('dragRect', () => {
  it('spans a drag whichever way it went', () => {
    expect(dragRect({ x: 10, y: 20 }, { x: 110, y: 70 })).toEqual({ x: 10, y: 20, width: 100, height: 50 });
    expect(dragRect({ x: 110, y: 70 }, { x: 10, y: 20 })).toEqual({ x: 10, y: 20, width: 100, height: 50 });
    expect(dragRect({ x: 110, y: 20 }, { x: 10, y: 70 })).toEqual({ x: 10, y: 20, width: 100, height: 50 });
    expect(dragRect({ x: 5, y: 5 }, { x: 5, y: 5 })).toEqual({ x: 5, y: 5, width: 0, height: 0 });
  });
});

describe('clampRect', () => {
  it('keeps what is inside the picture', () => {
    expect(clampRect({ x: -10, y: -5, width: 30, height: 20 }, HALF)).toEqual({
      x: 0,
      y: 0,
      width: 20,
      height: 15,
    });
    expect(clampRect({ x: 700, y: 440, width: 50, height: 50 }, HALF)).toEqual({
      x: 700,
      y: 440,
      width: 20,
      height: 10,
    });
    expect(clampRect({ x: 1, y: 2, width: 3, height: 4 }, HALF)).toEqual({ x: 1, y: 2, width: 3, height: 4 });
  });

  it('is null when nothing is inside', () => {
    expect(clampRect({ x: 800, y: 10, width: 50, height: 50 }, HALF)).toBeNull();
    expect(clampRect({ x: -60, y: 10, width: 50, height: 50 }, HALF)).toBeNull();
    expect(clampRect({ x: 10, y: 10, width: 0, height: 50 }, HALF)).toBeNull();
  });
});

describe('scaling between the picture as shown and the capture', () => {
  it('scales up to capture pixels, covering the rectangle with whole pixels', () => {
    expect(toCapture({ x: 10, y: 20, width: 100, height: 50 }, HALF, CAPTURE)).toEqual({
      x: 20,
      y: 40,
      width: 200,
      height: 100,
    });
    // Shown at 1/3: 10.5 → 31.5 covers pixels 31 to 32.
    expect(toCapture({ x: 10.5, y: 0, width: 0.5, height: 1 }, { width: 480, height: 300 }, CAPTURE)).toEqual(
      {
        x: 31,
        y: 0,
        width: 2,
        height: 3,
      },
    );
    // No floating-point pixel more: 0.1 * 3 is 0.30000000000000004.
    expect(
      toCapture({ x: 0.1, y: 0.1, width: 0.2, height: 0.2 }, { width: 480, height: 300 }, CAPTURE),
    ).toEqual({
      x: 0,
      y: 0,
      width: 1,
      height: 1,
    });
  });

  it('scales down when the picture is shown larger than it was taken', () => {
    expect(
      toCapture({ x: 100, y: 100, width: 200, height: 100 }, { width: 2880, height: 1800 }, CAPTURE),
    ).toEqual({
      x: 50,
      y: 50,
      width: 100,
      height: 50,
    });
  });

  it('stays inside the capture and needs sizes', () => {
    expect(toCapture({ x: 700, y: 400, width: 40, height: 80 }, HALF, CAPTURE)).toEqual({
      x: 1400,
      y: 800,
      width: 40,
      height: 100,
    });
    expect(toCapture({ x: 1, y: 1, width: 1, height: 1 }, { width: 0, height: 450 }, CAPTURE)).toBeNull();
    expect(toCapture({ x: 1, y: 1, width: 1, height: 1 }, HALF, { width: 1440, height: 0 })).toBeNull();
  });

  it('maps capture pixels back onto the picture as shown', () => {
    expect(toShown({ x: 20, y: 40, width: 200, height: 100 }, CAPTURE, HALF)).toEqual({
      x: 10,
      y: 20,
      width: 100,
      height: 50,
    });
    expect(toShown({ x: 20, y: 40, width: 200, height: 100 }, CAPTURE, { width: 0, height: 0 })).toBeNull();
  });

  it('places a capture box over the picture in percentages, clipped', () => {
    expect(boxPercent({ x: 144, y: 90, width: 720, height: 450 }, CAPTURE)).toEqual({
      left: '10%',
      top: '10%',
      width: '50%',
      height: '50%',
    });
    expect(boxPercent({ x: 1400, y: 0, width: 100, height: 9 }, CAPTURE)).toEqual({
      left: '97.22%',
      top: '0%',
      width: '2.78%',
      height: '1%',
    });
    expect(boxPercent({ x: 1500, y: 0, width: 10, height: 10 }, CAPTURE)).toBeNull();
    expect(boxPercent({ x: 0, y: 0, width: 10, height: 10 }, { width: 0, height: 0 })).toBeNull();
  });
});

describe('maskFromDrag', () => {
  it('turns a drag on the shown picture into a mask in capture pixels', () => {
    expect(maskFromDrag({ x: 110, y: 70 }, { x: 10, y: 20 }, HALF, CAPTURE)).toEqual({
      x: 20,
      y: 40,
      width: 200,
      height: 100,
    });
  });

  it('clamps a drag that leaves the picture to its edges', () => {
    expect(maskFromDrag({ x: 650, y: 400 }, { x: 900, y: 600 }, HALF, CAPTURE)).toEqual({
      x: 1300,
      y: 800,
      width: 140,
      height: 100,
    });
    expect(maskFromDrag({ x: -50, y: -50 }, { x: 10, y: 10 }, HALF, CAPTURE)).toEqual({
      x: 0,
      y: 0,
      width: 20,
      height: 20,
    });
  });

  it('ignores a click, a thin drag and one wholly outside', () => {
    expect(maskFromDrag({ x: 10, y: 10 }, { x: 10, y: 10 }, HALF, CAPTURE)).toBeNull();
    expect(maskFromDrag({ x: 10, y: 10 }, { x: 11, y: 100 }, HALF, CAPTURE)).toBeNull();
    expect(maskFromDrag({ x: 800, y: 10 }, { x: 900, y: 100 }, HALF, CAPTURE)).toBeNull();
  });
});

describe('parseMaskFields', () => {
  it('reads whole capture pixels', () => {
    expect(parseMaskFields({ x: '10', y: ' 20 ', width: '300', height: '40' }, CAPTURE)).toEqual({
      mask: { x: 10, y: 20, width: 300, height: 40 },
    });
  });

  it('cuts what reaches past the picture’s edge', () => {
    expect(parseMaskFields({ x: '1400', y: '0', width: '100', height: '900' }, CAPTURE)).toEqual({
      mask: { x: 1400, y: 0, width: 40, height: 900 },
    });
  });

  it('names each field that is wrong', () => {
    const parsed = parseMaskFields({ x: '', y: '-1', width: '0', height: '2.5' }, CAPTURE);
    expect(parsed.errors).toEqual({
      x: 'Enter the left edge (x) in whole pixels',
      y: 'Enter a top edge (y) from 0 to 899',
      width: 'Enter a width from 1 to 1440',
      height: 'Enter the height in whole pixels',
    });
    expect(parseMaskFields({ x: '1440', y: '0', width: '1', height: '1' }, CAPTURE).errors).toEqual({
      x: 'Enter a left edge (x) from 0 to 1439',
    });
  });
});

describe('threshold', () => {
  it('shows a share as a percentage and back', () => {
    expect(thresholdPercent(0)).toBe(0);
    expect(thresholdPercent(0.025)).toBe(2.5);
    expect(thresholdPercent(0.5)).toBe(50);
    expect(thresholdPercent(0.0001)).toBe(0.01);
    expect(thresholdShare(2.5)).toBe(0.025);
    expect(thresholdShare(0.1)).toBe(0.001);
    expect(thresholdShare(50)).toBe(0.5);
    for (const share of [0, 0.001, 0.0123, 0.07, 0.333, 0.5])
      expect(thresholdShare(thresholdPercent(share))).toBe(share);
  });

  it('reads the field, 0 to 50%', () => {
    expect(parseThreshold('2.5')).toEqual({ share: 0.025 });
    expect(parseThreshold(' 0 ')).toEqual({ share: 0 });
    expect(parseThreshold('1,5')).toEqual({ share: 0.015 });
    expect(parseThreshold('50')).toEqual({ share: 0.5 });
    for (const wrong of ['', '-1', '50.5', 'abc', 'Infinity'])
      expect(parseThreshold(wrong)).toEqual({ error: 'Enter a threshold from 0 to 50%' });
  });
});

describe('sameMasks and maskText', () => {
  it('compares rectangles in order', () => {
    const a = { x: 1, y: 2, width: 3, height: 4 };
    const b = { x: 5, y: 6, width: 7, height: 8 };
    expect(sameMasks([a, b], [{ ...a }, { ...b }])).toBe(true);
    expect(sameMasks([a, b], [b, a])).toBe(false);
    expect(sameMasks([a], [])).toBe(false);
    expect(sameMasks([], [])).toBe(true);
  });

  it('says a mask in words', () => {
    expect(maskText({ x: 10, y: 20, width: 120, height: 40 })).toBe('120 × 40 at 10, 20');
  });
});
