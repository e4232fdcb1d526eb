import type { VisualBox, VisualIssue } from '@argus/protocol';
import { boxPercent } from '../model/review';

/** What moved by itself, hatched and dimmed over the capture (the legend names it). */
export const MASK_STYLE = {
  backgroundImage:
    'repeating-linear-gradient(135deg, rgba(15, 23, 42, 0.55) 0 3px, rgba(15, 23, 42, 0.15) 3px 8px)',
} as const;

/**
 * A capture as shown: the image at the width it is given, and over it, scaled with it, the located
 * issues (numbered as in the list) and the masks. Boxes are in the capture's pixels (`width` ×
 * `height`), drawn as percentages of the image. The image says what it is; the boxes are the list's
 * in picture, so screen readers skip them.
 */
export function CaptureImage({
  src,
  alt,
  width,
  height,
  issues = [],
  masks = [],
  onError,
}: {
  src: string;
  alt: string;
  width: number;
  height: number;
  issues?: readonly VisualIssue[];
  masks?: readonly VisualBox[];
  onError?: () => void;
}) {
  return (
    <div className="relative">
      <img
        src={src}
        alt={alt}
        width={width > 0 ? width : undefined}
        height={height > 0 ? height : undefined}
        onError={onError}
        decoding="async"
        className="block h-auto w-full"
      />
      {masks.map((mask, index) => {
        const at = boxPercent(mask, width, height);
        return at ? (
          <span
            key={`m${index}`}
            aria-hidden
            data-testid="visual-mask"
            className="pointer-events-none absolute ring-1 ring-slate-900/50 ring-inset"
            style={{ ...at, ...MASK_STYLE }}
          />
        ) : null;
      })}
      {issues.map((issue, index) => {
        const at = boxPercent(issue.box, width, height);
        return at ? (
          <span
            key={`i${index}`}
            aria-hidden
            data-testid="visual-issue-box"
            className="pointer-events-none absolute rounded-sm bg-red-500/10 ring-2 ring-red-600"
            style={at}
          >
            <span className="absolute top-0 left-0 flex size-4 items-center justify-center rounded-br-sm bg-red-700 text-[10px] leading-none font-bold text-white">
              {index + 1}
            </span>
          </span>
        ) : null;
      })}
    </div>
  );
}
