import { estimateShift, MOVED_RESIDUAL, type Shift } from '../classify';
import type { RgbaImage } from '../image';
import type { Region } from '../regions';
import { growBox, isPlain } from './boxes';

/** A region of difference and, when its content moved, by how much. */
export interface LocatedRegion {
  region: Region;
  shift: Shift | null;
}

/**
 * Furthest apart (pixels) two regions of one move may lie: a block moved down leaves a strip at its
 * old top and one at its new bottom, its own height apart, so a block up to about this tall is one
 * issue. Further apart, the same move is reported as two issues (never a wrong one: the union must
 * itself be confirmed as moved).
 */
const MOVE_REACH = 240;

/**
 * The region's move, when one is credible. Content can only move if it is there in both images:
 * `estimateShift` also "finds" a move for a small element that appeared or went (the plain background
 * it compares is found again a few pixels away), which is an extra or a missing element instead.
 */
function moveOf(baseline: RgbaImage, current: RgbaImage, region: Region): Shift | null {
  const shift = estimateShift(baseline, current, region);
  if (!shift) return null;
  // With a margin, as analyseRegion reads it: a strip that lies wholly inside a moved block is plain.
  const around = growBox(region, 4, baseline.width, baseline.height) ?? region;
  return isPlain(baseline, around) || isPlain(current, around) ? null : shift;
}

const movedBy = (shift: Shift | null) => (shift && shift.residual <= MOVED_RESIDUAL ? shift : null);

const sameMove = (a: Shift, b: Shift) => Math.abs(a.sx - b.sx) <= 1 && Math.abs(a.sy - b.sy) <= 1;

function within(p: Region, q: Region, reach: number): boolean {
  return (
    p.x - reach < q.x + q.width &&
    q.x - reach < p.x + p.width &&
    p.y - reach < q.y + q.height &&
    q.y - reach < p.y + p.height
  );
}

function union(p: Region, q: Region): Region {
  const x = Math.min(p.x, q.x);
  const y = Math.min(p.y, q.y);
  return {
    x,
    y,
    width: Math.max(p.x + p.width, q.x + q.width) - x,
    height: Math.max(p.y + p.height, q.y + q.height) - y,
    pixels: p.pixels + q.pixels,
  };
}

/**
 * Each region with the move of its content (classify.ts `estimateShift`), regions of one move merged:
 * two regions that moved the same way, near each other, become one when their union is confirmed to
 * have moved so too. A moved element is then one "moved 12 px down" issue, not two strips.
 */
export function locateMoves(baseline: RgbaImage, current: RgbaImage, regions: Region[]): LocatedRegion[] {
  const list: LocatedRegion[] = regions.map((region) => ({
    region,
    shift: moveOf(baseline, current, region),
  }));
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < list.length && !merged; i++) {
      const a = movedBy(list[i].shift);
      if (!a) continue;
      for (let j = i + 1; j < list.length; j++) {
        const b = movedBy(list[j].shift);
        if (!b || !sameMove(a, b) || !within(list[i].region, list[j].region, MOVE_REACH)) continue;
        const region = union(list[i].region, list[j].region);
        const shift = movedBy(moveOf(baseline, current, region));
        if (!shift || !sameMove(shift, a)) continue;
        list[i] = { region, shift };
        list.splice(j, 1);
        merged = true;
        break;
      }
    }
  }
  return list;
}
