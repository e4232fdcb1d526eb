import { Columns2, ImageOff, Layers, ScanEye } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Panel } from '../../../components/panel';
import { SegmentedControl } from '../../../components/segmented-control';
import { cn } from '../../../lib/cn';
import { boxInImage, humanize, type IssueView, issuesOn, type ResultsView } from '../model/results';

type ImageEntry = ResultsView['images'][number];
export type VisualMode = 'side' | 'overlay';

const BOX_TONE: Record<string, string> = {
  critical: 'border-red-500 bg-red-500/10',
  high: 'border-red-500 bg-red-500/10',
  medium: 'border-orange-500 bg-orange-500/10',
  low: 'border-emerald-500 bg-emerald-500/10',
};

/** The issues' boxes over one image; the selected one stands out and is scrolled to. */
function Boxes({
  issues,
  image,
  numbers,
  selected,
  onSelect,
  scrollSelected,
}: {
  issues: readonly IssueView[];
  image: ImageEntry;
  numbers: ReadonlyMap<string, number>;
  selected: string | null;
  onSelect: (id: string) => void;
  /** Only one of the side-by-side pictures scrolls, or the two would fight over the page. */
  scrollSelected: boolean;
}) {
  const selectedRef = useRef<HTMLButtonElement | null>(null);
  useEffect(() => {
    if (scrollSelected && selected)
      selectedRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [selected, scrollSelected]);
  return (
    <>
      {issues.map((issue) => {
        if (!issue.location) return null;
        const box = boxInImage(issue.location, image);
        if (!box) return null;
        const active = issue.id === selected;
        const number = numbers.get(issue.id) ?? 0;
        return (
          <button
            key={issue.id}
            ref={active ? selectedRef : undefined}
            type="button"
            onClick={() => onSelect(issue.id)}
            aria-label={`Issue ${number}: ${issue.title}`}
            aria-pressed={active}
            title={issue.title}
            className={cn(
              'absolute rounded-sm border-2 transition focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600',
              BOX_TONE[issue.priority] ?? BOX_TONE.medium,
              active
                ? 'z-10 border-indigo-600 bg-indigo-500/20 shadow-[0_0_0_3px_rgba(79,70,229,0.35)]'
                : 'hover:bg-white/30',
            )}
            style={{
              left: `${box.left}%`,
              top: `${box.top}%`,
              width: `${box.width}%`,
              height: `${box.height}%`,
            }}
            data-testid="issue-box"
            data-issue-id={issue.id}
            data-selected={active ? 'true' : 'false'}
          >
            <span
              className={cn(
                'absolute -top-px -left-px rounded-br px-1 text-[10px] leading-4 font-semibold text-white',
                active ? 'bg-indigo-600' : 'bg-slate-900/75',
              )}
              aria-hidden
            >
              {number}
            </span>
          </button>
        );
      })}
    </>
  );
}

function Picture({
  src,
  alt,
  image,
  onError,
  children,
  overlay,
}: {
  src: string;
  alt: string;
  image: ImageEntry;
  onError: () => void;
  children?: React.ReactNode;
  overlay?: React.ReactNode;
}) {
  return (
    <div className="relative w-full bg-slate-100" style={{ aspectRatio: `${image.width} / ${image.height}` }}>
      <img
        src={src}
        alt={alt}
        className="absolute inset-0 size-full select-none"
        draggable={false}
        onError={onError}
      />
      {overlay}
      {children}
    </div>
  );
}

export interface VisualPanelProps {
  view: ResultsView;
  viewport: string;
  onViewportChange: (viewport: string) => void;
  selectedIssue: string | null;
  onSelectIssue: (id: string) => void;
}

/**
 * Beyond the spec: the site capture and the design as compared, side by side or one over the other
 * (the design's opacity on a slider), with each issue's box drawn where it was found.
 */
export function VisualPanel({
  view,
  viewport,
  onViewportChange,
  selectedIssue,
  onSelectIssue,
}: VisualPanelProps) {
  const [mode, setMode] = useState<VisualMode>('side');
  const [opacity, setOpacity] = useState(50);
  const [broken, setBroken] = useState<string | null>(null);
  const sliderId = useId();
  const image = view.images.find((entry) => entry.name === viewport) ?? view.images[0];
  if (!image) return null;
  const issues = issuesOn(view.issues, image.name);
  const numbers = new Map(view.issues.map((issue, index) => [issue.id, index + 1]));
  const failed = broken === `${image.site_url}|${image.design_url}`;
  const markBroken = () => setBroken(`${image.site_url}|${image.design_url}`);
  const boxes = (scroll: boolean) => (
    <Boxes
      issues={issues}
      image={image}
      numbers={numbers}
      selected={selectedIssue}
      onSelect={onSelectIssue}
      scrollSelected={scroll}
    />
  );

  return (
    <Panel
      title="Visual Comparison"
      icon={ScanEye}
      testId="visual-panel"
      subtitle={`${humanize(image.name)} · ${image.width}×${image.height} · ${issues.length} ${issues.length === 1 ? 'issue' : 'issues'} marked`}
    >
      <div className="flex flex-wrap items-center gap-3">
        {view.images.length > 1 && (
          <SegmentedControl
            size="compact"
            legend="Viewport"
            name={`${sliderId}-viewport`}
            value={image.name}
            onChange={onViewportChange}
            options={view.images.map((entry) => ({ value: entry.name, label: humanize(entry.name) }))}
          />
        )}
        <SegmentedControl
          size="compact"
          legend="View"
          name={`${sliderId}-mode`}
          value={mode}
          onChange={(value) => setMode(value === 'overlay' ? 'overlay' : 'side')}
          options={[
            { value: 'side', label: 'Side by side', icon: Columns2 },
            { value: 'overlay', label: 'Overlay', icon: Layers },
          ]}
        />
        {mode === 'overlay' && (
          <div className="flex min-w-48 flex-1 items-center gap-2 text-xs text-slate-600">
            <label htmlFor={sliderId} className="shrink-0 font-medium">
              Design opacity
            </label>
            <input
              id={sliderId}
              type="range"
              min={0}
              max={100}
              step={5}
              value={opacity}
              onChange={(event) => setOpacity(Number(event.target.value))}
              className="min-w-0 flex-1 accent-indigo-600"
              data-testid="overlay-opacity"
            />
            <span className="w-9 text-right tabular-nums">{opacity}%</span>
          </div>
        )}
      </div>

      {failed ? (
        <div
          className="mt-4 flex flex-col items-center rounded-xl border border-dashed border-slate-200 px-4 py-8 text-center"
          role="status"
        >
          <ImageOff className="size-6 text-slate-300" aria-hidden />
          <p className="mt-2 text-sm font-medium text-slate-600">The images could not be loaded</p>
          <p className="mt-1 max-w-sm text-xs text-slate-500">
            Their links are short-lived. Reload the page to reopen this comparison with fresh links.
          </p>
        </div>
      ) : mode === 'side' ? (
        <div
          className="mt-4 max-h-[720px] overflow-y-auto rounded-xl ring-1 ring-slate-200"
          data-testid="visual-side-by-side"
        >
          <div className="grid grid-cols-2 gap-px bg-slate-200">
            <figure className="min-w-0 bg-white">
              <figcaption className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 px-3 py-1.5 text-xs font-semibold text-slate-700">
                Website
              </figcaption>
              <Picture
                src={image.site_url}
                alt={`Website capture, ${image.name}`}
                image={image}
                onError={markBroken}
              >
                {boxes(true)}
              </Picture>
            </figure>
            <figure className="min-w-0 bg-white">
              <figcaption className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 px-3 py-1.5 text-xs font-semibold text-slate-700">
                Design
              </figcaption>
              <Picture
                src={image.design_url}
                alt={`Design, ${image.name}`}
                image={image}
                onError={markBroken}
              >
                {boxes(false)}
              </Picture>
            </figure>
          </div>
        </div>
      ) : (
        <div
          className="mt-4 max-h-[720px] overflow-y-auto rounded-xl ring-1 ring-slate-200"
          data-testid="visual-overlay"
        >
          <Picture
            src={image.site_url}
            alt={`Website capture with the design over it, ${image.name}`}
            image={image}
            onError={markBroken}
            overlay={
              <img
                src={image.design_url}
                alt=""
                aria-hidden
                className="pointer-events-none absolute inset-0 size-full select-none"
                style={{ opacity: opacity / 100 }}
                draggable={false}
                onError={markBroken}
                data-testid="overlay-design"
              />
            }
          >
            {boxes(true)}
          </Picture>
        </div>
      )}
    </Panel>
  );
}
