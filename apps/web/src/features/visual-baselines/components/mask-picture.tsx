import type { VisualBox } from '@argus/protocol';
import { type PointerEvent, useRef, useState } from 'react';
import { boxPercent, clampRect, dragRect, maskFromDrag, type Point, type Size } from '../model/masks';

/** The team's masks: hatched in indigo, numbered as listed. */
export const USER_MASK_STYLE = {
  backgroundImage:
    'repeating-linear-gradient(135deg, rgba(67, 56, 202, 0.55) 0 3px, rgba(67, 56, 202, 0.15) 3px 8px)',
} as const;
/** What moved by itself when the baseline was taken: hatched in grey. */
export const MOVING_MASK_STYLE = {
  backgroundImage:
    'repeating-linear-gradient(135deg, rgba(15, 23, 42, 0.45) 0 3px, rgba(15, 23, 42, 0.1) 3px 8px)',
} as const;

/**
 * A baseline's picture with its masks over it, scaled with it (boxes in the capture's pixels, drawn as
 * percentages). Unless read-only, a drag on the picture (mouse, pen or touch: pointer events) adds a
 * rectangle: from where it started to where it ended, clamped to the picture, in the capture's pixels.
 * The drag has a keyboard equivalent beside it (the form); the drawing surface is not announced.
 */
export function MaskPicture({
  src,
  alt,
  capture,
  masks,
  moving,
  readOnly,
  onAdd,
  onImageError,
}: {
  src: string;
  alt: string;
  capture: Size;
  masks: readonly VisualBox[];
  moving: readonly VisualBox[];
  readOnly: boolean;
  onAdd: (mask: VisualBox) => void;
  onImageError: () => void;
}) {
  const surface = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<{ id: number; start: Point; end: Point } | null>(null);

  const shownSize = (): Size => {
    const rect = surface.current?.getBoundingClientRect();
    return { width: rect?.width ?? 0, height: rect?.height ?? 0 };
  };
  const pointOf = (event: PointerEvent<HTMLDivElement>): Point => {
    const rect = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (readOnly || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const at = pointOf(event);
    setDrag({ id: event.pointerId, start: at, end: at });
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag || event.pointerId !== drag.id) return;
    setDrag({ ...drag, end: pointOf(event) });
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag || event.pointerId !== drag.id) return;
    const mask = maskFromDrag(drag.start, pointOf(event), shownSize(), capture);
    setDrag(null);
    if (mask) onAdd(mask);
  };

  const preview = drag ? clampRect(dragRect(drag.start, drag.end), shownSize()) : null;

  return (
    <div className="relative select-none" data-testid="visual-mask-picture">
      <img
        src={src}
        alt={alt}
        width={capture.width > 0 ? capture.width : undefined}
        height={capture.height > 0 ? capture.height : undefined}
        onError={onImageError}
        draggable={false}
        decoding="async"
        className="block h-auto w-full rounded border border-slate-200 bg-slate-100"
      />
      {moving.map((mask, index) => {
        const at = boxPercent(mask, capture);
        return at ? (
          <span
            key={`moving${index}`}
            aria-hidden
            className="pointer-events-none absolute ring-1 ring-slate-900/40 ring-inset"
            style={{ ...at, ...MOVING_MASK_STYLE }}
          />
        ) : null;
      })}
      {masks.map((mask, index) => {
        const at = boxPercent(mask, capture);
        return at ? (
          <span
            key={`user${index}`}
            aria-hidden
            data-testid="visual-user-mask"
            className="pointer-events-none absolute ring-2 ring-indigo-700 ring-inset"
            style={{ ...at, ...USER_MASK_STYLE }}
          >
            <span className="absolute top-0 left-0 flex size-4 items-center justify-center rounded-br-sm bg-indigo-700 text-[10px] leading-none font-bold text-white">
              {index + 1}
            </span>
          </span>
        ) : null;
      })}
      {!readOnly && (
        <div
          ref={surface}
          aria-hidden
          data-testid="visual-mask-surface"
          className="absolute inset-0 cursor-crosshair"
          style={{ touchAction: 'none' }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => setDrag(null)}
        >
          {preview && (
            <span
              className="pointer-events-none absolute border-2 border-dashed border-indigo-700 bg-indigo-500/20"
              style={{ left: preview.x, top: preview.y, width: preview.width, height: preview.height }}
            />
          )}
        </div>
      )}
    </div>
  );
}
