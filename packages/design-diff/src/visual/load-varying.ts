import type { VisualCaptureSession } from '@argus/engine';
import { FREEZE_CSS } from '../capture';
import { decodeImage, type RgbaImage } from '../image';
import type { Box } from '../regions';
import { growBox, unionBoxes } from './boxes';
import { movedBetween } from './settled-capture';

/**
 * What differs between loads of the page past this share of its area is not masked: the page's state
 * is not what a load of its address shows (an app's screen reached by clicks, a form's result), and
 * masking most of it would hide what the check is for.
 */
export const MAX_LOAD_VARYING_SHARE = 0.25;

export interface LoadVarying {
  /** Boxes (in the capture's coordinates, grown by a margin) that differed on another load; empty when none or capped. */
  boxes: Box[];
  /** Other loads taken. */
  loads: number;
  /** More than MAX_LOAD_VARYING_SHARE of the page differed: nothing is masked. */
  capped: boolean;
}

export interface LoadVaryingOptions {
  /** Other loads to take at most. */
  loads: number;
  settleMs: number;
  maxHeight?: number;
  /** Pixels each box is grown by. @default 4 */
  margin?: number;
  signal: AbortSignal;
  /** Stops taking loads once what is learned is enough (a comparison it masks finds nothing). */
  enough?: (boxes: Box[]) => boolean;
}

/**
 * What varies between loads of the page (a banner or an ad drawn at random on each load): the page's
 * address loaded again in another tab of the session (`captureAnotherLoad`), stilled as the check's own
 * capture, and compared with it; what differs is returned as boxes to mask. The two captures of one
 * check a moment apart cannot see it: it stands still within a load. A load that fails (the session
 * cannot load another tab, the address answers an error) ends the learning with what was learned.
 */
export async function learnLoadVarying(
  session: VisualCaptureSession,
  image: RgbaImage,
  options: LoadVaryingOptions,
): Promise<LoadVarying> {
  const none = { boxes: [], loads: 0, capped: false };
  if (!session.captureAnotherLoad) return none;
  const margin = options.margin ?? 4;
  let boxes: Box[] = [];
  let loads = 0;
  while (loads < options.loads) {
    let other: RgbaImage;
    try {
      const shot = await session.captureAnotherLoad({
        maxHeight: options.maxHeight ?? 16_384,
        settleMs: options.settleMs,
        freezeCss: FREEZE_CSS,
        signal: options.signal,
      });
      other = await decodeImage(shot.data);
    } catch (error) {
      if (options.signal.aborted) throw error;
      break;
    }
    loads++;
    const grown = movedBetween(image, other).flatMap(
      (box) => growBox(box, margin, image.width, image.height) ?? [],
    );
    boxes = unionBoxes([...boxes, ...grown]);
    if (options.enough?.(boxes)) break;
  }
  const area = boxes.reduce((sum, box) => sum + box.width * box.height, 0);
  if (area > MAX_LOAD_VARYING_SHARE * image.width * image.height) return { boxes: [], loads, capped: true };
  return { boxes, loads, capped: false };
}
