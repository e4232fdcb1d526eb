import { describe, expect, it } from 'vitest';
import { createThrottle, keyChord, pointerButton, toCanvasPoint, wheelDelta } from './takeover';

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'altKey' | 'metaKey' | 'shiftKey', boolean>> = {}) =>
  keyChord({ key: k, ctrlKey: false, altKey: false, metaKey: false, shiftKey: false, ...mods });

describe('takeover input mapping', () => {
  it('scales CSS pixels to canvas pixels', () => {
    const box = { left: 100, top: 50, width: 427, height: 240 };
    expect(toCanvasPoint(100, 50, box)).toEqual({ x: 0, y: 0 });
    expect(toCanvasPoint(100 + 213.5, 50 + 120, box)).toEqual({ x: 427, y: 240 });
    expect(toCanvasPoint(527, 290, box)).toEqual({ x: 854, y: 480 });
    expect(toCanvasPoint(99, 60, box)).toBeNull();
  });

  it('accounts for letterboxing when the box has another ratio (fullscreen)', () => {
    // 1000×1000 box: the 16:9 picture is 1000×562.06, centred vertically.
    const box = { left: 0, top: 0, width: 1000, height: 1000 };
    const top = (1000 - 480 * (1000 / 854)) / 2;
    expect(toCanvasPoint(500, 500, box)).toEqual({ x: 427, y: 240 });
    expect(toCanvasPoint(0, top + 1, box)?.x).toBe(0);
    expect(toCanvasPoint(500, top - 5, box)).toBeNull();
  });

  it('names buttons', () => {
    expect([pointerButton(0), pointerButton(1), pointerButton(2)]).toEqual(['left', 'middle', 'right']);
  });

  it('throttles moves to at most 30 a second', () => {
    const throttle = createThrottle(30);
    let sent = 0;
    for (let t = 0; t < 1000; t += 5) if (throttle.take(t)) sent += 1;
    expect(sent).toBeLessThanOrEqual(30);
    expect(sent).toBeGreaterThanOrEqual(29);
  });

  it('turns key presses into keys and chords', () => {
    expect(key('a')).toBe('a');
    expect(key('A', { shiftKey: true })).toBe('A');
    expect(key('Enter')).toBe('Enter');
    expect(key('Tab', { shiftKey: true })).toBe('Shift+Tab');
    expect(key('a', { ctrlKey: true })).toBe('Control+A');
    expect(key(' ')).toBe('Space');
    expect(key('Shift', { shiftKey: true })).toBeNull();
    expect(key('Control', { ctrlKey: true })).toBeNull();
    expect(key('Unidentified')).toBeNull();
  });

  it('converts wheel deltas to pixels within bounds', () => {
    expect(wheelDelta(100, 0)).toBe(100);
    expect(wheelDelta(3, 1)).toBe(48);
    expect(wheelDelta(1, 2)).toBe(480);
    expect(wheelDelta(1e9, 0)).toBe(10_000);
  });
});
