import { ChevronLeft, ChevronRight, Download, RotateCw, X, ZoomIn, ZoomOut } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ScreenshotItem } from '../model/screenshots';
import {
  MAX_ZOOM,
  MIN_ZOOM,
  rotate,
  type Size,
  stepIndex,
  type ViewerCommand,
  viewerCommandForKey,
  viewerLayout,
  zoomIn,
  zoomOut,
  zoomPercent,
} from '../model/viewer';

export interface ScreenshotViewerProps {
  screenshots: readonly ScreenshotItem[];
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
  onDownload: (shot: ScreenshotItem) => void;
  /** The image did not load (a stored image's link may have expired: the screen renews it). */
  onImageError?: (shot: ScreenshotItem) => void;
}

const toolbarButton =
  'inline-flex size-9 items-center justify-center rounded-lg text-slate-200 transition hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-indigo-400 disabled:opacity-30 disabled:hover:bg-transparent';

/**
 * The full-screen viewer (docs/PRODUCT.md#screenshots): previous/next, zoom 50%-300% in 20% steps, 90° rotation, download.
 * Keys: Esc closes, ←/→ navigate, +/- zoom, R rotates.
 */
export function ScreenshotViewer({
  screenshots,
  index,
  onIndexChange,
  onClose,
  onDownload,
  onImageError,
}: ScreenshotViewerProps) {
  // Zoom and rotation belong to one image: another image starts at 100%, upright, in the same render.
  const [view, setView] = useState({ index, zoom: 1, rotation: 0 });
  const current = view.index === index ? view : { index, zoom: 1, rotation: 0 };
  const { zoom, rotation } = current;
  const dialogRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  /** The room the stage has for the image (inside its padding). */
  const [stage, setStage] = useState<Size | null>(null);
  const [loaded, setLoaded] = useState<{ src: string; size: Size } | null>(null);
  const count = screenshots.length;
  const shot = screenshots[index];

  const run = useCallback(
    (command: ViewerCommand) => {
      switch (command) {
        case 'close':
          onClose();
          break;
        case 'previous':
        case 'next': {
          const next = stepIndex(index, command === 'next' ? 1 : -1, count);
          setView({ index: next, zoom: 1, rotation: 0 });
          onIndexChange(next);
          break;
        }
        case 'zoom-in':
          setView((v) => {
            const c = v.index === index ? v : { index, zoom: 1, rotation: 0 };
            return { ...c, zoom: zoomIn(c.zoom) };
          });
          break;
        case 'zoom-out':
          setView((v) => {
            const c = v.index === index ? v : { index, zoom: 1, rotation: 0 };
            return { ...c, zoom: zoomOut(c.zoom) };
          });
          break;
        case 'rotate':
          setView((v) => {
            const c = v.index === index ? v : { index, zoom: 1, rotation: 0 };
            return { ...c, rotation: rotate(c.rotation) };
          });
          break;
      }
    },
    [index, count, onClose, onIndexChange],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const command = viewerCommandForKey(event.key);
      if (!command) return;
      event.preventDefault();
      run(command);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [run]);

  // Lock the page behind and take focus while open; give it back on close.
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    dialogRef.current?.focus();
    return () => {
      document.body.style.overflow = overflow;
      previous?.focus?.();
    };
  }, []);

  useEffect(() => {
    const element = stageRef.current;
    if (!element) return;
    const measure = () => {
      const style = getComputedStyle(element);
      const padX = Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight);
      const padY = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom);
      setStage({ width: element.clientWidth - padX, height: element.clientHeight - padY });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  if (!shot) return null;
  const natural =
    loaded?.src === shot.src
      ? loaded.size
      : shot.width && shot.height
        ? { width: shot.width, height: shot.height }
        : null;
  const layout = natural && stage ? viewerLayout(stage, natural, zoom, rotation) : null;

  return (
    <div
      ref={dialogRef}
      role="dialog"
      aria-modal="true"
      aria-label="Screenshot viewer"
      tabIndex={-1}
      className="fixed inset-0 z-[60] flex flex-col bg-slate-950 text-white outline-none"
      data-testid="screenshot-viewer"
    >
      <div className="flex flex-wrap items-center gap-3 border-b border-white/10 px-4 py-3 sm:px-6">
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-semibold">
            {shot.testName} · step {shot.stepNumber}
          </p>
          <p className="truncate text-xs text-slate-400">{shot.stepName}</p>
        </div>
        <span className="text-xs text-slate-400 tabular-nums" data-testid="viewer-position">
          {index + 1} / {count}
        </span>
        <div className="flex items-center gap-1 rounded-xl bg-white/5 p-1">
          <button
            type="button"
            className={toolbarButton}
            onClick={() => run('zoom-out')}
            disabled={zoom <= MIN_ZOOM}
            aria-label="Zoom out"
            title="Zoom out (-)"
          >
            <ZoomOut className="size-4" aria-hidden />
          </button>
          <span className="w-12 text-center text-xs font-medium tabular-nums" data-testid="viewer-zoom">
            {zoomPercent(zoom)}
          </span>
          <button
            type="button"
            className={toolbarButton}
            onClick={() => run('zoom-in')}
            disabled={zoom >= MAX_ZOOM}
            aria-label="Zoom in"
            title="Zoom in (+)"
          >
            <ZoomIn className="size-4" aria-hidden />
          </button>
          <span className="mx-1 h-5 w-px bg-white/10" aria-hidden />
          <button
            type="button"
            className={toolbarButton}
            onClick={() => run('rotate')}
            aria-label="Rotate"
            title="Rotate 90° (R)"
          >
            <RotateCw className="size-4" aria-hidden />
          </button>
          <button
            type="button"
            className={toolbarButton}
            onClick={() => onDownload(shot)}
            aria-label="Download screenshot"
            title="Download"
          >
            <Download className="size-4" aria-hidden />
          </button>
          <button
            type="button"
            className={toolbarButton}
            onClick={onClose}
            aria-label="Close viewer"
            title="Close (Esc)"
          >
            <X className="size-4" aria-hidden />
          </button>
        </div>
      </div>

      <div className="relative flex min-h-0 flex-1">
        {/* The stage scrolls; the box is centred with auto margins, so every edge of a zoomed image
            stays reachable (centring by flex alignment would cut off its top and left). */}
        <div ref={stageRef} className="flex min-h-0 flex-1 overflow-auto p-6" data-testid="viewer-stage">
          <div
            className="relative m-auto shrink-0"
            style={layout ? { width: layout.box.width, height: layout.box.height } : undefined}
          >
            <img
              src={shot.src}
              alt={`${shot.testName} step ${shot.stepNumber}: ${shot.stepName}`}
              className={
                layout
                  ? 'absolute top-1/2 left-1/2 max-w-none rounded-md shadow-2xl transition-transform duration-200'
                  : 'max-h-full max-w-full rounded-md object-contain shadow-2xl'
              }
              style={
                layout
                  ? {
                      width: layout.image.width,
                      height: layout.image.height,
                      transform: `translate(-50%, -50%) rotate(${rotation}deg)`,
                    }
                  : undefined
              }
              onLoad={(event) => {
                const img = event.currentTarget;
                setLoaded({
                  src: shot.src,
                  size: { width: img.naturalWidth, height: img.naturalHeight },
                });
              }}
              onError={() => onImageError?.(shot)}
              data-testid="viewer-image"
              data-zoom={zoom}
              data-rotation={rotation}
            />
          </div>
        </div>
        {count > 1 && (
          <>
            <button
              type="button"
              onClick={() => run('previous')}
              aria-label="Previous screenshot"
              title="Previous (←)"
              className="absolute top-1/2 left-3 inline-flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-slate-900/80 text-white shadow-lg ring-1 ring-white/20 backdrop-blur transition hover:bg-slate-800 sm:left-6"
            >
              <ChevronLeft className="size-6" aria-hidden />
            </button>
            <button
              type="button"
              onClick={() => run('next')}
              aria-label="Next screenshot"
              title="Next (→)"
              className="absolute top-1/2 right-3 inline-flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-slate-900/80 text-white shadow-lg ring-1 ring-white/20 backdrop-blur transition hover:bg-slate-800 sm:right-6"
            >
              <ChevronRight className="size-6" aria-hidden />
            </button>
          </>
        )}
      </div>
      <p className="pb-3 text-center text-[11px] text-slate-500">
        Esc close · ← → navigate · + − zoom · R rotate
        {shot.width && shot.height ? ` · ${shot.width}×${shot.height}` : ''}
      </p>
    </div>
  );
}
