/**
 * The order in which waiting work takes its turn: between organizations, the one with the least
 * work going goes first (ties in rotation order: the one served longest ago first); within one
 * organization, first in first out. So one organization's fifty queued runs, two of them going, do
 * not hold another's single run behind them: that run is next. Kept free of any store so that the
 * in-process line (run-line.ts) and the Redis-held one (scale/redis-run-line.ts) agree.
 */

/** Lines of waiting work per organization, the rotation of the organizations that have any, and their work going. */
export interface Lines<T> {
  /** Each organization's waiting work, oldest first. */
  readonly byOrg: ReadonlyMap<string, readonly T[]>;
  /** Organizations with waiting work, the one served longest ago first. */
  readonly rotation: readonly string[];
  /** Work of an organization going now. */
  readonly running: (org: string) => number;
}

/**
 * Every waiting item in the order it would start if every organization could start work now: an
 * item's turn is the organization's work going plus its index in that organization's line; lower
 * turns first, ties in rotation order. An item's index here is its `queue_position`.
 */
export function turnOrder<T>({ byOrg, rotation, running }: Lines<T>): T[] {
  const turns: { item: T; turn: number; rank: number }[] = [];
  rotation.forEach((org, rank) => {
    const going = running(org);
    (byOrg.get(org) ?? []).forEach((item, index) => {
      turns.push({ item, turn: going + index, rank });
    });
  });
  turns.sort((a, b) => a.turn - b.turn || a.rank - b.rank);
  return turns.map((t) => t.item);
}

/**
 * The organization whose line's head starts next: of those that may start work now (`mayStart`, e.g.
 * under their concurrency), the one with the least work going, ties in rotation order; null when none may.
 */
export function nextOrg(
  rotation: readonly string[],
  running: (org: string) => number,
  mayStart: (org: string) => boolean,
): string | null {
  let best: string | null = null;
  for (const org of rotation) {
    if (!mayStart(org)) continue;
    if (best === null || running(org) < running(best)) best = org;
  }
  return best;
}
