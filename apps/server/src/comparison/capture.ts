import { type CaptureSession, compareDesignDetailed, type DetailedComparison } from '@argus/design-diff';
import { AbortedError, QueuePositions, queuedMessage } from '@argus/engine';
import type { ComparisonDeps, Progress } from './comparison-deps';
import type { DesignFrames } from './figma-frames';
import type { ImageWorkGate } from './image-work';
import type { ComparisonRequest } from './request-checks';

/** At most `n` at once: a comparison holds no more browsers than the user's budget gave it. */
function limiter(n: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(run: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await run();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/**
 * Captures the live site at each viewport whose design is there, on the pool's browsers (at most
 * `browsers` at once, the activity's), and measures it against the design: design-diff's detailed
 * comparison, with each viewport's images kept for storage and the review, and the page's element
 * facts read for a Figma design. Its progress is the comparison's 10..90.
 */
export async function captureAndCompare(
  deps: Pick<ComparisonDeps, 'config' | 'openSession'>,
  imageWork: ImageWorkGate,
  request: ComparisonRequest,
  frames: DesignFrames,
  browsers: number,
  signal: AbortSignal,
  progress: Progress,
): Promise<DetailedComparison> {
  if (signal.aborted) throw new AbortedError();
  const run = limiter(browsers);
  // While its viewports wait for browsers (MAX_BROWSERS, shared by every user), the comparison
  // says its place in line; once it holds one it is capturing and says that instead.
  const line = new QueuePositions((position) => progress(10, queuedMessage(position)));
  const open = (viewport: { width: number; height: number }, openSignal?: AbortSignal) =>
    run(async () => {
      const { value } = await line.acquire((queued) =>
        deps.openSession({
          viewport,
          signal: openSignal ?? signal,
          onQueued: queued.onQueued,
          onClose: queued.over,
        }),
      );
      return value;
    }) as Promise<CaptureSession>;
  progress(10, `Capturing ${request.websiteUrl}`);
  return compareDesignDetailed({
    design: frames.design,
    url: request.websiteUrl,
    viewports: Object.fromEntries(
      Object.entries(request.viewports).filter(([name]) => !(name in frames.unrendered)),
    ),
    options: request.options,
    openSession: open,
    signal,
    keepImages: true,
    drawnAt: frames.drawnAt,
    readDomFacts: request.source.type === 'figma',
    maxComparisonPixels: deps.config.comparisonMaxPixels,
    imageWork: (work, workSignal) => imageWork.run(work, workSignal),
    onProgress: ({ percent, message }) => {
      // design-diff's 0..100 is this comparison's 10..90.
      if (percent < 100) progress(10 + percent * 0.8, message);
    },
  });
}
