import { describe, expect, it } from 'vitest';
import {
  clampZoom,
  rotate,
  stepIndex,
  viewerCommandForKey,
  viewerLayout,
  zoomIn,
  zoomOut,
  zoomPercent,
} from './viewer';

describe('viewer maths (docs/PRODUCT.md#screenshots: zoom 0.5-3 in steps of 0.2, 90° rotation)', () => {
  it('zooms in 20% steps up to 300%', () => {
    const seen: number[] = [];
    let zoom = 1;
    for (let i = 0; i < 12; i += 1) {
      zoom = zoomIn(zoom);
      seen.push(zoom);
    }
    expect(seen.slice(0, 3)).toEqual([1.2, 1.4, 1.6]);
    expect(seen.at(-1)).toBe(3);
    expect(zoomPercent(zoomIn(1))).toBe('120%');
  });

  it('zooms out to 50% at least', () => {
    expect(zoomOut(1)).toBe(0.8);
    expect(zoomOut(zoomOut(1))).toBe(0.6);
    expect(zoomOut(0.6)).toBe(0.5);
    expect(zoomOut(0.5)).toBe(0.5);
    expect(zoomPercent(0.5)).toBe('50%');
    expect(clampZoom(9)).toBe(3);
  });

  it('rotates clockwise by 90° and wraps at 360°', () => {
    expect([0, 90, 180, 270].map(rotate)).toEqual([90, 180, 270, 0]);
  });

  it('wraps previous/next around the ends', () => {
    expect(stepIndex(0, -1, 5)).toBe(4);
    expect(stepIndex(4, 1, 5)).toBe(0);
    expect(stepIndex(2, 1, 5)).toBe(3);
    expect(stepIndex(0, 1, 0)).toBe(0);
  });

  it('maps the keys: Esc, arrows, +/-, R', () => {
    expect(viewerCommandForKey('Escape')).toBe('close');
    expect(viewerCommandForKey('ArrowLeft')).toBe('previous');
    expect(viewerCommandForKey('ArrowRight')).toBe('next');
    expect(viewerCommandForKey('+')).toBe('zoom-in');
    expect(viewerCommandForKey('=')).toBe('zoom-in');
    expect(viewerCommandForKey('-')).toBe('zoom-out');
    expect(viewerCommandForKey('r')).toBe('rotate');
    expect(viewerCommandForKey('R')).toBe('rotate');
    expect(viewerCommandForKey('x')).toBeNull();
  });
});

describe('viewer layout', () => {
  const stage = { width: 1000, height: 500 };
  it('fits a large image to the stage at 100% and never enlarges a small one', () => {
    expect(viewerLayout(stage, { width: 2000, height: 1000 }, 1, 0).image).toEqual({
      width: 1000,
      height: 500,
    });
    expect(viewerLayout(stage, { width: 400, height: 300 }, 1, 0).image).toEqual({ width: 400, height: 300 });
  });

  it('zoom scales the laid-out size, so a zoomed image overflows the stage and can be scrolled', () => {
    const { image, box } = viewerLayout(stage, { width: 2000, height: 1000 }, 3, 0);
    expect(image).toEqual({ width: 3000, height: 1500 });
    expect(box).toEqual(image);
  });

  it('a sideways image fits by its turned box', () => {
    const { image, box } = viewerLayout(stage, { width: 1280, height: 800 }, 1, 90);
    // Turned, it is 800 wide and 1280 tall: the stage's 500 px height limits it.
    expect(box.height).toBeCloseTo(500);
    expect(box.width).toBeCloseTo(312.5);
    expect(image.width).toBeCloseTo(box.height);
    expect(viewerLayout(stage, { width: 1280, height: 800 }, 1, 180).box.width).toBeCloseTo(800);
  });
});
