import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { baselineKeys } from '../api/keys';

/** How often a link that no longer opens (it expired) is asked for again, at most. */
const RENEW_INTERVAL_MS = 30_000;

/**
 * The baselines' picture links are signed and expire: when one no longer opens, the lists are read
 * again (fresh links); at most once in a while, so a picture that is really gone does not ask again and again.
 */
export function useRenewLinks(): () => void {
  const queryClient = useQueryClient();
  const renewedAt = useRef(0);
  return useCallback(() => {
    if (Date.now() - renewedAt.current < RENEW_INTERVAL_MS) return;
    renewedAt.current = Date.now();
    void queryClient.invalidateQueries({ queryKey: baselineKeys.all });
  }, [queryClient]);
}
