import { CANVAS_HEIGHT, CANVAS_WIDTH } from './video';

/**
 * Takeover (beyond the spec): input on the video canvas becomes `browser_input` in canvas pixels of the
 * 854×480 canvas, scaled from the element's CSS box (the frame is drawn to fill the canvas, and the
 * canvas keeps 16:9 with `object-fit: contain`, so letterboxing is taken into account).
 */

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export const CANVAS_SIZE = { width: CANVAS_WIDTH, height: CANVAS_HEIGHT } as const;

/** At most this many pointer moves (and wheel turns) a second. */
export const MAX_MOVES_PER_SECOND = 30;

/**
 * A point of the page (client coordinates) in canvas pixels, or null when it is outside the drawn
 * picture (the letterbox of a box of another ratio).
 */
export function toCanvasPoint(
  clientX: number,
  clientY: number,
  box: Box,
  canvas: { width: number; height: number } = CANVAS_SIZE,
): { x: number; y: number } | null {
  if (box.width <= 0 || box.height <= 0) return null;
  const scale = Math.min(box.width / canvas.width, box.height / canvas.height);
  const drawnWidth = canvas.width * scale;
  const drawnHeight = canvas.height * scale;
  const offsetX = box.left + (box.width - drawnWidth) / 2;
  const offsetY = box.top + (box.height - drawnHeight) / 2;
  const x = (clientX - offsetX) / scale;
  const y = (clientY - offsetY) / scale;
  if (x < 0 || y < 0 || x > canvas.width || y > canvas.height) return null;
  return { x: Math.round(x * 100) / 100, y: Math.round(y * 100) / 100 };
}

/** A pointer button (`PointerEvent.button`) as the protocol names it. */
export function pointerButton(button: number): 'left' | 'middle' | 'right' {
  if (button === 1) return 'middle';
  if (button === 2) return 'right';
  return 'left';
}

/** Allows one event per interval: `take(now)` says whether this one may go. */
export function createThrottle(perSecond = MAX_MOVES_PER_SECOND) {
  const interval = 1000 / perSecond;
  let last = Number.NEGATIVE_INFINITY;
  return {
    take(now: number): boolean {
      if (now - last < interval) return false;
      last = now;
      return true;
    },
    reset() {
      last = Number.NEGATIVE_INFINITY;
    },
  };
}

const MODIFIER_KEYS = new Set(['Control', 'Shift', 'Alt', 'Meta', 'AltGraph', 'CapsLock', 'Fn', 'OS']);

/**
 * The key to send for a keydown (`KeyboardEvent.key`, or a chord such as `Control+A`), or null for
 * a key alone that does nothing by itself (a modifier, an unidentified key). Shift is part of a
 * printed character already ('A'), so it is named only with other keys (`Shift+Tab`).
 */
export function keyChord(event: {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}): string | null {
  const { key } = event;
  if (!key || key === 'Unidentified' || key === 'Dead' || MODIFIER_KEYS.has(key)) return null;
  const printable = [...key].length === 1;
  const parts: string[] = [];
  if (event.ctrlKey) parts.push('Control');
  if (event.altKey) parts.push('Alt');
  if (event.metaKey) parts.push('Meta');
  if (event.shiftKey && !printable) parts.push('Shift');
  // A letter in a chord is named by its key (Control+a → Control+A), as Playwright expects.
  const name = key === ' ' ? 'Space' : printable && parts.length > 0 ? key.toUpperCase() : key;
  parts.push(name);
  const chord = parts.join('+');
  return chord.length > 40 ? null : chord;
}

/** The key that hands control back to the chat (it is not sent to the page). */
export const HAND_BACK_KEY = 'Escape';

/** Wheel deltas in pixels (lines are 16 px, pages a canvas height), within the protocol's bounds. */
export function wheelDelta(delta: number, deltaMode: number): number {
  const factor = deltaMode === 1 ? 16 : deltaMode === 2 ? CANVAS_HEIGHT : 1;
  const px = delta * factor;
  return Math.max(-10_000, Math.min(10_000, Math.round(px)));
}

/** One takeover event, as `browser_input` carries it. */
export type TakeoverInput =
  | {
      type: 'pointer';
      action: 'move' | 'down' | 'up' | 'click';
      x: number;
      y: number;
      button?: 'left' | 'middle' | 'right';
    }
  | { type: 'wheel'; x: number; y: number; deltaX: number; deltaY: number }
  | { type: 'key'; action: 'down' | 'up' | 'press'; key: string };
