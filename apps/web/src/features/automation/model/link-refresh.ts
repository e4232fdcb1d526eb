import { runsWithStaleLinks, type ScreenshotItem } from './screenshots';

/** After a refresh, an image of that run failing again is not a reason to ask again this soon. */
export const LINK_RETRY_MS = 15_000;

export interface LinkRefresher {
  /** Renews the links of stored images that have expired or soon will (before a download). */
  ensureFresh(): Promise<void>;
  /** A stored image failed to load (its link expired while the screen stayed open): renew its run's links. */
  imageFailed(item: ScreenshotItem): Promise<void>;
}

/**
 * Stored screenshots open through signed links that expire after a few minutes. A screen kept open
 * longer asks the server for the run's screenshot list again (with its Authorization header) and
 * swaps in the fresh links: before a download when a link is stale, and when an image fails to load.
 * One request per run at a time; a run whose images keep failing is asked again at most every
 * LINK_RETRY_MS, so a screenshot that is really gone cannot cause a loop.
 */
export function createLinkRefresher(deps: {
  items: () => readonly ScreenshotItem[];
  fetchLinks: (runId: string) => Promise<readonly { id: string; url: string }[]>;
  apply: (refs: readonly { id: string; url: string }[]) => void;
  now?: () => number;
}): LinkRefresher {
  const now = deps.now ?? Date.now;
  const pending = new Map<string, Promise<void>>();
  const askedAt = new Map<string, number>();

  const refresh = (runId: string, onFailure: boolean): Promise<void> => {
    const inFlight = pending.get(runId);
    if (inFlight) return inFlight;
    const last = askedAt.get(runId);
    if (onFailure && last !== undefined && now() - last < LINK_RETRY_MS) return Promise.resolve();
    askedAt.set(runId, now());
    const request = deps
      .fetchLinks(runId)
      .then((refs) => deps.apply(refs))
      .catch(() => {
        // The image stays as it is; the next failure or download asks again.
      })
      .finally(() => pending.delete(runId));
    pending.set(runId, request);
    return request;
  };

  return {
    async ensureFresh() {
      await Promise.all(runsWithStaleLinks(deps.items(), now()).map((runId) => refresh(runId, false)));
    },
    imageFailed(item) {
      return item.stored ? refresh(item.stored.runId, true) : Promise.resolve();
    },
  };
}
