import { type KeyboardEvent, type PointerEvent, useEffect, useMemo, useRef, useState } from 'react';
import { cn } from '../../../lib/cn';
import {
  createThrottle,
  HAND_BACK_KEY,
  keyChord,
  pointerButton,
  type TakeoverInput,
  toCanvasPoint,
  wheelDelta,
} from '../model/takeover';
import { CONVERSATIONAL_TEXTS } from '../model/texts';
import { CANVAS_HEIGHT, CANVAS_WIDTH, type VideoFrame } from '../model/video';

export interface VideoCanvasProps {
  subscribeFrames: (listener: (frame: VideoFrame | null) => void) => () => void;
  /** Takeover: pointer, wheel and keys go to the page. */
  inControl: boolean;
  onInput: (input: TakeoverInput) => void;
  onHandBack: () => void;
  fullscreen: boolean;
}

/**
 * The live video (docs/PRODUCT.md#live-video): the latest frame drawn on an 854×480 canvas, 'Waiting for video stream...'
 * before the first. In control, the canvas is focusable and its input is sent to the page.
 */
export function VideoCanvas({
  subscribeFrames,
  inControl,
  onInput,
  onHandBack,
  fullscreen,
}: VideoCanvasProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [hasFrame, setHasFrame] = useState(false);
  const moves = useMemo(() => createThrottle(), []);
  const wheels = useMemo(() => createThrottle(), []);
  const latest = useRef({ inControl, onInput });
  latest.current = { inControl, onInput };

  // Draw the latest frame as frames come; a frame decoded after a newer one arrived is dropped.
  useEffect(() => {
    let drawn = 0;
    let seq = 0;
    const unsubscribe = subscribeFrames((frame) => {
      const canvas = canvasRef.current;
      const context = canvas?.getContext('2d');
      seq += 1;
      const mine = seq;
      if (!frame) {
        context?.clearRect(0, 0, CANVAS_WIDTH, CANVAS_HEIGHT);
        setHasFrame(false);
        return;
      }
      const image = new Image();
      image.onload = () => {
        if (mine < drawn) return;
        drawn = mine;
        context?.drawImage(image, 0, 0, CANVAS_WIDTH, CANVAS_HEIGHT);
        setHasFrame(true);
      };
      image.src = frame.frame;
    });
    return unsubscribe;
  }, [subscribeFrames]);

  // Focus follows taking control, so typed keys go to the page at once.
  useEffect(() => {
    if (inControl) canvasRef.current?.focus();
  }, [inControl]);

  // Wheel: a non-passive listener, so the page under the canvas does not scroll instead.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let dx = 0;
    let dy = 0;
    const onWheel = (event: WheelEvent) => {
      if (!latest.current.inControl) return;
      event.preventDefault();
      dx += wheelDelta(event.deltaX, event.deltaMode);
      dy += wheelDelta(event.deltaY, event.deltaMode);
      if (!wheels.take(performance.now())) return;
      const point = toCanvasPoint(event.clientX, event.clientY, canvas.getBoundingClientRect());
      if (!point) return;
      latest.current.onInput({
        type: 'wheel',
        ...point,
        deltaX: Math.max(-10_000, Math.min(10_000, dx)),
        deltaY: Math.max(-10_000, Math.min(10_000, dy)),
      });
      dx = 0;
      dy = 0;
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => canvas.removeEventListener('wheel', onWheel);
  }, [wheels]);

  const pointAt = (event: PointerEvent<HTMLCanvasElement>) =>
    toCanvasPoint(event.clientX, event.clientY, event.currentTarget.getBoundingClientRect());

  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!inControl || !moves.take(performance.now())) return;
    const point = pointAt(event);
    if (point) onInput({ type: 'pointer', action: 'move', ...point });
  };
  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!inControl) return;
    event.preventDefault();
    event.currentTarget.focus();
    const point = pointAt(event);
    if (!point) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    onInput({ type: 'pointer', action: 'down', ...point, button: pointerButton(event.button) });
  };
  const onPointerUp = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!inControl) return;
    const point = pointAt(event);
    if (!point) return;
    onInput({ type: 'pointer', action: 'up', ...point, button: pointerButton(event.button) });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLCanvasElement>) => {
    if (!inControl) return;
    if (event.key === HAND_BACK_KEY) {
      event.preventDefault();
      onHandBack();
      return;
    }
    const key = keyChord(event);
    if (!key) return;
    event.preventDefault();
    onInput({ type: 'key', action: 'press', key });
  };

  return (
    <div className={cn('relative bg-slate-900', fullscreen ? 'flex h-full w-full items-center' : 'w-full')}>
      <canvas
        ref={canvasRef}
        width={CANVAS_WIDTH}
        height={CANVAS_HEIGHT}
        data-testid="video-canvas"
        data-has-frame={hasFrame}
        data-in-control={inControl}
        tabIndex={inControl ? 0 : -1}
        role={inControl ? 'application' : 'img'}
        aria-label={
          inControl
            ? 'Live browser: you are in control. Mouse and keys go to the page; press Escape to hand back.'
            : 'Live browser video'
        }
        onPointerMove={onPointerMove}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onKeyDown={onKeyDown}
        onContextMenu={(event) => inControl && event.preventDefault()}
        className={cn(
          'block aspect-video w-full touch-none bg-slate-900 object-contain',
          fullscreen && 'h-full',
          inControl
            ? 'cursor-crosshair outline-3 outline-offset-[-3px] outline-amber-400 focus:outline-indigo-400'
            : 'cursor-default',
        )}
      />
      {!hasFrame && (
        <div
          className="absolute inset-0 flex flex-col items-center justify-center gap-3 text-sm text-slate-200"
          data-testid="waiting-for-video"
        >
          <span
            className="size-6 animate-spin rounded-full border-2 border-slate-300 border-r-transparent"
            aria-hidden
          />
          <span role="status">{CONVERSATIONAL_TEXTS.waitingForVideo}</span>
        </div>
      )}
    </div>
  );
}
