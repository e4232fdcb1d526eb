import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { visualKeys } from '../api/keys';

/** How often a link that no longer opens (it expired) is asked for again, at most. */
const RENEW_INTERVAL_MS = 30_000;

/**
 * The run's image links are signed and expire: when one no longer opens, the run's list is read again
 * (fresh links); at most once in a while, so an image that is really gone does not ask again and again.
 */
export function useRenewLinks(runId: string): () => void {
  const queryClient = useQueryClient();
  const renewedAt = useRef(0);
  return useCallback(() => {
    if (Date.now() - renewedAt.current < RENEW_INTERVAL_MS) return;
    renewedAt.current = Date.now();
    void queryClient.invalidateQueries({ queryKey: visualKeys.run(runId) });
  }, [queryClient, runId]);
}
