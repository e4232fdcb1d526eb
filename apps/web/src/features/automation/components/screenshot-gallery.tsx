import {
  ChevronLeft,
  ChevronRight,
  Download,
  GalleryHorizontal,
  Images,
  LayoutGrid,
  Maximize2,
} from 'lucide-react';
import { memo, useEffect, useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { IconButton } from '../../../components/icon-button';
import { Panel } from '../../../components/panel';
import { SmallButton } from '../../../components/small-button';
import { cn } from '../../../lib/cn';
import type { ScreenshotItem } from '../model/screenshots';
import { stepIndex } from '../model/viewer';

export interface ScreenshotGalleryProps {
  screenshots: readonly ScreenshotItem[];
  onOpen: (index: number) => void;
  onDownload: (shot: ScreenshotItem) => void;
  onDownloadAll: () => void;
  /** An image did not load (a stored image's link may have expired: the screen renews it). */
  onImageError?: (shot: ScreenshotItem) => void;
}

function StatusDot({ status }: { status: ScreenshotItem['status'] }) {
  return (
    <span
      title={status}
      className={cn(
        'size-2 shrink-0 rounded-full',
        status === 'error' ? 'bg-red-500' : status === 'success' ? 'bg-emerald-500' : 'bg-amber-400',
      )}
    >
      <span className="sr-only">{status}</span>
    </span>
  );
}

function caption(shot: ScreenshotItem): string {
  return `${shot.testName} · step ${shot.stepNumber}`;
}

/** One grid tile; memoised, so a new screenshot does not redraw the others. */
const Thumbnail = memo(function Thumbnail({
  item,
  index,
  onOpen,
  onDownload,
  onImageError,
}: {
  item: ScreenshotItem;
  index: number;
  onOpen: (index: number) => void;
  onDownload: (shot: ScreenshotItem) => void;
  onImageError?: (shot: ScreenshotItem) => void;
}) {
  return (
    <li
      className="group min-w-0 [contain-intrinsic-size:auto_9rem] [content-visibility:auto]"
      data-testid="screenshot"
    >
      <div className="relative overflow-hidden rounded-lg border border-slate-200 bg-slate-100">
        <button
          type="button"
          onClick={() => onOpen(index)}
          className="block w-full focus-visible:outline-2 focus-visible:outline-indigo-600"
          aria-label={`Open screenshot ${index + 1}: ${caption(item)}`}
        >
          <img
            src={item.src}
            alt={`${caption(item)}: ${item.stepName}`}
            loading="lazy"
            decoding="async"
            onError={() => onImageError?.(item)}
            className="aspect-[16/10] w-full object-cover object-top transition group-hover:scale-[1.02]"
          />
        </button>
        <span className="pointer-events-none absolute top-1.5 right-1.5 flex gap-1 opacity-0 transition group-hover:opacity-100">
          <span className="rounded-md bg-slate-900/70 p-1 text-white">
            <Maximize2 className="size-3.5" aria-hidden />
          </span>
        </span>
      </div>
      <div className="mt-1.5 flex items-center gap-1.5">
        <StatusDot status={item.status} />
        <span className="min-w-0 flex-1 truncate text-[11px] text-slate-600" title={item.stepName}>
          {caption(item)}
        </span>
        <IconButton
          icon={Download}
          label={`Download ${item.fileName}`}
          onClick={() => onDownload(item)}
          className="size-6"
        />
      </div>
    </li>
  );
});

/** docs/PRODUCT.md#screenshots: screenshots in a grid or a carousel, each downloadable, and 'Download All'. */
export function ScreenshotGallery({
  screenshots,
  onOpen,
  onDownload,
  onDownloadAll,
  onImageError,
}: ScreenshotGalleryProps) {
  const [view, setView] = useState<'grid' | 'carousel'>('grid');
  const [current, setCurrent] = useState(0);
  const count = screenshots.length;

  useEffect(() => {
    if (current >= count) setCurrent(Math.max(0, count - 1));
  }, [current, count]);

  const shot = screenshots[Math.min(current, count - 1)];

  return (
    <Panel
      title="Screenshots"
      icon={Images}
      subtitle={count ? `${count} captured` : undefined}
      testId="screenshot-gallery"
      aside={
        <>
          <fieldset className="flex rounded-lg bg-slate-100 p-0.5">
            <legend className="sr-only">Gallery view</legend>
            <IconButton
              icon={LayoutGrid}
              label="Grid view"
              pressed={view === 'grid'}
              onClick={() => setView('grid')}
              className="size-7"
            />
            <IconButton
              icon={GalleryHorizontal}
              label="Carousel view"
              pressed={view === 'carousel'}
              onClick={() => setView('carousel')}
              className="size-7"
            />
          </fieldset>
          <SmallButton icon={Download} onClick={onDownloadAll} disabled={count === 0}>
            Download All
          </SmallButton>
        </>
      }
    >
      {count === 0 ? (
        <EmptyState
          icon={Images}
          title="No screenshots yet"
          hint="A screenshot is taken after every step while tests run."
        />
      ) : view === 'grid' ? (
        <ul className="-mr-2 grid max-h-[32rem] grid-cols-2 gap-3 overflow-y-auto pr-2" data-view="grid">
          {screenshots.map((item, index) => (
            <Thumbnail
              key={item.key}
              item={item}
              index={index}
              onOpen={onOpen}
              onDownload={onDownload}
              onImageError={onImageError}
            />
          ))}
        </ul>
      ) : (
        shot && (
          <div data-view="carousel">
            <div className="relative overflow-hidden rounded-xl border border-slate-200 bg-slate-900">
              <button
                type="button"
                onClick={() => onOpen(current)}
                className="block w-full"
                aria-label={`Open screenshot ${current + 1}: ${caption(shot)}`}
              >
                <img
                  src={shot.src}
                  alt={`${caption(shot)}: ${shot.stepName}`}
                  className="mx-auto aspect-[16/10] w-full object-contain"
                  onError={() => onImageError?.(shot)}
                  data-testid="carousel-image"
                />
              </button>
              <IconButton
                icon={ChevronLeft}
                label="Previous screenshot"
                onClick={() => setCurrent((index) => stepIndex(index, -1, count))}
                className="absolute top-1/2 left-2 -translate-y-1/2 bg-white/90 text-slate-800 shadow hover:bg-white"
              />
              <IconButton
                icon={ChevronRight}
                label="Next screenshot"
                onClick={() => setCurrent((index) => stepIndex(index, 1, count))}
                className="absolute top-1/2 right-2 -translate-y-1/2 bg-white/90 text-slate-800 shadow hover:bg-white"
              />
              <span className="absolute right-2 bottom-2 rounded-md bg-slate-900/75 px-2 py-0.5 text-[11px] font-medium text-white tabular-nums">
                {current + 1} / {count}
              </span>
            </div>
            <div className="mt-2 flex items-center gap-2">
              <StatusDot status={shot.status} />
              <div className="min-w-0 flex-1">
                <p className="truncate text-xs font-medium text-slate-800">{caption(shot)}</p>
                <p className="truncate text-[11px] text-slate-500">{shot.stepName}</p>
              </div>
              <IconButton
                icon={Download}
                label={`Download ${shot.fileName}`}
                onClick={() => onDownload(shot)}
              />
            </div>
            <ul className="mt-3 flex gap-2 overflow-x-auto pb-1">
              {screenshots.map((item, index) => (
                <li key={item.key} className="shrink-0">
                  <button
                    type="button"
                    onClick={() => setCurrent(index)}
                    aria-label={`Show screenshot ${index + 1}`}
                    aria-current={index === current}
                    className={cn(
                      'block overflow-hidden rounded-md ring-2 transition',
                      index === current ? 'ring-indigo-500' : 'ring-transparent opacity-70 hover:opacity-100',
                    )}
                  >
                    <img
                      src={item.src}
                      alt=""
                      loading="lazy"
                      decoding="async"
                      onError={() => onImageError?.(item)}
                      className="h-12 w-20 object-cover object-top"
                    />
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )
      )}
    </Panel>
  );
}
