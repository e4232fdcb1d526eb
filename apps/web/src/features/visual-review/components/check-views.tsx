import type { VisualBox, VisualRunCheck } from '@argus/protocol';
import { ImageOff } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { overlayClip, overlayValueText } from '../model/review';
import { CaptureImage } from './capture-image';

/** The masks over this run's capture: what moved by itself between its two captures, and the team's own. */
function currentMasks(check: VisualRunCheck): VisualBox[] {
  return [...check.moving_masks, ...(check.baseline?.user_masks ?? [])];
}

function baselineMasks(check: VisualRunCheck): VisualBox[] {
  return check.baseline ? [...check.baseline.moving_masks, ...check.baseline.user_masks] : [];
}

function Figure({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <figure className="min-w-0 self-start overflow-hidden rounded-lg border border-slate-200 bg-slate-50">
      <figcaption className="border-b border-slate-200 bg-white px-2 py-1 text-xs font-medium text-slate-700">
        {caption}
      </figcaption>
      {children}
    </figure>
  );
}

function Missing({ text }: { text: string }) {
  return (
    <div className="flex aspect-video flex-col items-center justify-center gap-1 text-xs text-slate-600">
      <ImageOff className="size-5 text-slate-400" aria-hidden />
      {text}
    </div>
  );
}

interface ViewProps {
  check: VisualRunCheck;
  /** An image link that no longer opens (it expired): the list is read again. */
  onImageError: () => void;
}

/** This run's capture alone: a new check, or one that looked as approved. */
export function CurrentView({ check, onImageError }: ViewProps) {
  return (
    <Figure caption="Now: this run’s capture">
      <CaptureImage
        src={check.images.current}
        alt={`${check.case_name}, ${check.check_name}, as captured in this run`}
        width={check.width}
        height={check.height}
        issues={check.issues}
        masks={currentMasks(check)}
        onError={onImageError}
      />
    </Figure>
  );
}

/** The approved baseline beside this run's capture (stacked on a narrow screen), the issues over the capture. */
export function SideBySideView({ check, onImageError }: ViewProps) {
  const baseline = check.baseline;
  return (
    <div className="grid gap-3 sm:grid-cols-2" data-testid="visual-side-by-side">
      <Figure caption="Baseline: as approved">
        {check.images.baseline ? (
          <CaptureImage
            src={check.images.baseline}
            alt={`${check.case_name}, ${check.check_name}, as approved`}
            width={baseline?.width ?? check.width}
            height={baseline?.height ?? check.height}
            masks={baselineMasks(check)}
            onError={onImageError}
          />
        ) : (
          <Missing text="No baseline yet" />
        )}
      </Figure>
      <CurrentView check={check} onImageError={onImageError} />
    </div>
  );
}

/**
 * This run's capture over the baseline, a slider revealing one or the other from the left: a range
 * input (arrow keys, Home, End), labelled, saying where it stands.
 */
export function OverlayView({ check, onImageError }: ViewProps) {
  const [revealed, setRevealed] = useState(50);
  const sliderId = useId();
  const baseline = check.baseline;
  return (
    <div className="space-y-2" data-testid="visual-overlay">
      <Figure caption="Overlay: now over the baseline">
        <div className="grid">
          <div style={{ gridArea: '1 / 1' }}>
            {check.images.baseline ? (
              <CaptureImage
                src={check.images.baseline}
                alt={`${check.case_name}, ${check.check_name}, as approved (under the slider)`}
                width={baseline?.width ?? check.width}
                height={baseline?.height ?? check.height}
                masks={baselineMasks(check)}
                onError={onImageError}
              />
            ) : (
              <Missing text="No baseline yet" />
            )}
          </div>
          <div
            style={{ gridArea: '1 / 1', clipPath: overlayClip(revealed) }}
            data-testid="visual-overlay-current"
          >
            <CaptureImage
              src={check.images.current}
              alt={`${check.case_name}, ${check.check_name}, as captured in this run (over the baseline)`}
              width={check.width}
              height={check.height}
              issues={check.issues}
              masks={currentMasks(check)}
              onError={onImageError}
            />
          </div>
          <div
            aria-hidden
            className="pointer-events-none w-0.5 self-stretch bg-indigo-600 shadow-[0_0_0_1px_white]"
            style={{ gridArea: '1 / 1', marginLeft: `calc(${revealed}% - 1px)` }}
          />
        </div>
      </Figure>
      <div className="flex items-center gap-3 text-xs font-medium text-slate-700">
        <span aria-hidden>Baseline</span>
        <label htmlFor={sliderId} className="sr-only">
          {`Reveal this run’s capture over the baseline of ${check.case_name}, ${check.check_name}`}
        </label>
        <input
          id={sliderId}
          type="range"
          min={0}
          max={100}
          step={1}
          value={revealed}
          aria-valuetext={overlayValueText(revealed)}
          onChange={(event) => setRevealed(Number(event.target.value))}
          className="h-2 min-w-0 flex-1 cursor-pointer accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          data-testid="visual-overlay-slider"
        />
        <span aria-hidden>Now</span>
      </div>
    </div>
  );
}

/** The comparison's picture: the changed pixels highlighted, the issues located over it. */
export function DifferenceView({ check, onImageError }: ViewProps) {
  return (
    <Figure caption="Difference: changed pixels highlighted">
      {check.images.diff ? (
        <CaptureImage
          src={check.images.diff}
          alt={`${check.case_name}, ${check.check_name}: the pixels that changed since approved`}
          width={check.width}
          height={check.height}
          issues={check.issues}
          masks={currentMasks(check)}
          onError={onImageError}
        />
      ) : (
        <Missing text="No difference drawn" />
      )}
    </Figure>
  );
}
