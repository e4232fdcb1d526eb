import { type StoredComparison, StoredComparisonSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/comparisons/{session_id}: the last comparison of a design session (404 when it has none). */
export function getComparison(sessionId: string, signal?: AbortSignal): Promise<StoredComparison> {
  return apiRequest(`/api/comparisons/${encodeURIComponent(sessionId)}`, { signal }, StoredComparisonSchema);
}

/**
 * A past comparison to reopen; nothing is fetched while `sessionId` is null. Each `attempt` fetches
 * afresh (opening the same comparison again gets new links).
 */
export function useStoredComparison(sessionId: string | null, attempt = 0) {
  return useQuery({
    queryKey: ['comparisons', sessionId, attempt],
    queryFn: ({ signal }) => getComparison(sessionId as string, signal),
    enabled: sessionId !== null,
    // A missing comparison is an answer, not a hiccup worth retrying.
    retry: false,
    // The signed image links inside expire in minutes: never serve an old copy.
    staleTime: 0,
    gcTime: 0,
  });
}
