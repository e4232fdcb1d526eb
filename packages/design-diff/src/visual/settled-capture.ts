import { type CaptureSession, FREEZE_CSS } from '../capture';
import { diffImages } from '../diff-kernel';
import { cropTop, decodeImage, type RgbaImage } from '../image';
import { type Box, findRegions } from '../regions';
import { growBox, unionBoxes, widenToLine } from './boxes';

export interface SettledCaptureOptions {
  /** Time between two captures: what differs across it moves by itself. @default 250 */
  gapMs?: number;
  /** Pixels each moving region is grown by, so its anti-aliased fringe is masked too. @default 4 */
  margin?: number;
  /** Captures at most: a third is taken when something moved between the first two. @default 3 */
  maxCaptures?: number;
  /** Captures at least, whether or not anything moved (a longer watch). @default 2 */
  minCaptures?: number;
  /**
   * What is already known to move (a baseline's masks, in the page's coordinates): when everything
   * that moved lies inside these, no further capture is taken, the known masks covering the rest.
   */
  known?: Box[];
  /** Passed to the session's capture: the longest wait for the network and fonts, the tallest capture. */
  settleMs?: number;
  maxHeight?: number;
  signal?: AbortSignal;
}

export interface SettledCapture {
  /** The last capture taken, decoded. */
  image: RgbaImage;
  /** Its PNG bytes, as the browser made them (what a baseline stores). */
  png: Buffer;
  /** What moved by itself between the captures, grown by `margin`: masks for the comparison. */
  moving: Box[];
}

/**
 * Captures the page the session shows as `capturePage` (capture.ts) does, animations and the caret
 * frozen and the network and fonts settled, twice, `gapMs` apart. What differs between the two
 * changes by itself (a clock, a carousel, a caret) and is returned as `moving`, widened to its line
 * and grown by a margin. If anything moved (that is not `known` to move), a third capture is taken and
 * what moved then is added: a region that changed in only one of the two gaps is not missed.
 */
export async function captureSettled(
  session: Pick<CaptureSession, 'capturePage' | 'evaluate'>,
  options: SettledCaptureOptions = {},
): Promise<SettledCapture> {
  const gapMs = options.gapMs ?? 250;
  const margin = options.margin ?? 4;
  const known = options.known ?? [];
  await freeze(session, options.signal);
  let last = await take(session, options);
  const moving: Box[] = [];
  for (let capture = 2; capture <= Math.max(2, options.maxCaptures ?? 3); capture++) {
    await pause(gapMs, options.signal);
    // The first capture waited for the network and the fonts: the next ones are taken as they are.
    const next = await take(session, { ...options, settleMs: 0 });
    const moved = movedBetween(await last.image, await next.image);
    last = next;
    moving.push(...moved);
    if (
      capture >= (options.minCaptures ?? 2) &&
      moved.every((box) => known.some((mask) => inside(box, mask)))
    )
      break;
  }
  const image = await last.image;
  const { width, height } = image;
  const grown = moving.flatMap((box) => growBox(box, margin, width, height) ?? []);
  return { image, png: last.png, moving: unionBoxes(grown) };
}

/**
 * Installs capture.ts's FREEZE_CSS in the page once (a page opened by `capturePage` has it already),
 * takes the focus off any field and pauses media: the same stillness as a design comparison's capture.
 */
function freeze(session: Pick<CaptureSession, 'evaluate'>, signal?: AbortSignal): Promise<void> {
  return session.evaluate(
    (css: string) => {
      if (!document.querySelector('style[data-argus-freeze]')) {
        const style = document.createElement('style');
        style.dataset.argusFreeze = '';
        style.textContent = css;
        (document.head ?? document.documentElement).append(style);
      }
      (document.activeElement as HTMLElement | null)?.blur?.();
      for (const media of document.querySelectorAll('video, audio')) (media as HTMLMediaElement).pause();
    },
    FREEZE_CSS,
    { signal },
  );
}

async function take(
  session: Pick<CaptureSession, 'capturePage'>,
  options: SettledCaptureOptions,
): Promise<{ image: Promise<RgbaImage>; png: Buffer }> {
  const shot = await session.capturePage({
    fullPage: true,
    maxHeight: options.maxHeight ?? 16_384,
    settleMs: options.settleMs ?? 5_000,
    signal: options.signal,
    // The page is stilled (freeze), and the captures are compared at once: speed over size.
    fast: true,
  });
  // Decoded while the next capture waits its gap, not before it.
  const image = decodeImage(shot.data);
  image.catch(() => {}); // awaited later; a failure must not go unhandled meanwhile
  return { image, png: shot.data };
}

/**
 * The boxes that differ between two captures of the same page, each widened to its line. Every
 * differing pixel counts here, anti-aliasing and single pixels too: anything that changes by itself
 * would otherwise be reported by a later comparison (4-pixel cells: a changing paragraph is a few
 * boxes, not one per glyph). Rows only one capture has (the page's height
 * changed by itself) are one box.
 */
export function movedBetween(a: RgbaImage, b: RgbaImage): Box[] {
  const width = Math.min(a.width, b.width);
  const height = Math.min(a.height, b.height);
  // A full-page capture is as wide as the viewport; should that change by itself, no part of the
  // page can be trusted to stand still.
  if (a.width !== b.width) return [{ x: 0, y: 0, width: Math.max(a.width, b.width), height }];
  const top = (img: RgbaImage) => cropTop(img, height).data;
  const diff = diffImages(top(a), top(b), width, height, { includeAA: true });
  const boxes: Box[] =
    diff.count === 0
      ? []
      : findRegions(diff.mask, width, height, { cell: 4, gap: 4, minPixels: 1 }).map((r) =>
          widenToLine(b, { x: r.x, y: r.y, width: r.width, height: r.height }),
        );
  if (a.height !== b.height) boxes.push({ x: 0, y: height, width, height: Math.abs(a.height - b.height) });
  return boxes;
}

const inside = (box: Box, mask: Box) =>
  box.x >= mask.x &&
  box.y >= mask.y &&
  box.x + box.width <= mask.x + mask.width &&
  box.y + box.height <= mask.y + mask.height;

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}
