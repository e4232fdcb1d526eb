/** docs/PRODUCT.md#screenshots: the screenshot viewer zooms from 0.5 to 3 in steps of 0.2 and rotates by 90 degrees. */
export const MIN_ZOOM = 0.5;
export const MAX_ZOOM = 3;
export const ZOOM_STEP = 0.2;
export const ROTATE_STEP = 90;

/** Rounds away float noise (1 + 0.2 = 1.2000000000000002). */
function tidy(value: number): number {
  return Math.round(value * 100) / 100;
}

export function clampZoom(zoom: number): number {
  return tidy(Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom)));
}

export function zoomIn(zoom: number): number {
  return clampZoom(zoom + ZOOM_STEP);
}

export function zoomOut(zoom: number): number {
  return clampZoom(zoom - ZOOM_STEP);
}

export function zoomPercent(zoom: number): string {
  return `${Math.round(zoom * 100)}%`;
}

/** Clockwise by 90 degrees, kept within 0-270. */
export function rotate(degrees: number): number {
  return (((degrees + ROTATE_STEP) % 360) + 360) % 360;
}

/** Previous/next wrap around the ends. */
export function stepIndex(index: number, delta: number, count: number): number {
  if (count <= 0) return 0;
  return (((index + delta) % count) + count) % count;
}

export type ViewerCommand = 'close' | 'previous' | 'next' | 'zoom-in' | 'zoom-out' | 'rotate';

/** Viewer keys (docs/PRODUCT.md#screenshots): Esc closes, arrows navigate, +/- zoom, R rotates. */
export function viewerCommandForKey(key: string): ViewerCommand | null {
  switch (key) {
    case 'Escape':
      return 'close';
    case 'ArrowLeft':
      return 'previous';
    case 'ArrowRight':
      return 'next';
    case '+':
    case '=':
      return 'zoom-in';
    case '-':
    case '_':
      return 'zoom-out';
    case 'r':
    case 'R':
      return 'rotate';
    default:
      return null;
  }
}

export interface Size {
  width: number;
  height: number;
}

/**
 * Where the viewer draws an image. At 100% the image fits the stage (never enlarged past its own
 * size); zoom then scales its laid-out size rather than a CSS transform, so the stage can scroll to
 * every edge of a zoomed image. A sideways image (90° or 270°) fits and scrolls by its turned box.
 */
export function viewerLayout(stage: Size, natural: Size, zoom: number, rotation: number) {
  const sideways = rotation % 180 !== 0;
  const across = sideways ? natural.height : natural.width;
  const down = sideways ? natural.width : natural.height;
  const fit = Math.min(1, Math.max(stage.width, 1) / across, Math.max(stage.height, 1) / down);
  const image = { width: natural.width * fit * zoom, height: natural.height * fit * zoom };
  const box = sideways ? { width: image.height, height: image.width } : image;
  return { image, box };
}
