import { type StoredComparison, StoredComparisonSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/comparisons/{session_id}: the last comparison of a design session (404 when it has none). */
export function getComparison(sessionId: string, signal?: AbortSignal): Promise<StoredComparison> {
  return apiRequest(`/api/comparisons/${encodeURIComponent(sessionId)}`, { signal }, StoredComparisonSchema);
}

/** A past comparison to reopen; nothing is fetched while `sessionId` is null. */
export function useStoredComparison(sessionId: string | null) {
  return useQuery({
    queryKey: ['comparisons', sessionId],
    queryFn: ({ signal }) => getComparison(sessionId as string, signal),
    enabled: sessionId !== null,
    // A missing comparison is an answer, not a hiccup worth retrying.
    retry: false,
    // The signed image links inside expire in minutes: never serve an old copy.
    staleTime: 0,
    gcTime: 0,
  });
}
