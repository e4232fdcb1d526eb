import { type ComparisonSummary, ComparisonSummaryListSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** Apart from `['comparisons', session_id]` (one stored comparison), so refreshing the list leaves those be. */
export const PAST_COMPARISONS_QUERY_KEY = ['comparison-list'] as const;

/** GET /api/comparisons: the user's past comparisons, the latest of each session, newest first. */
export function listComparisons(signal?: AbortSignal): Promise<ComparisonSummary[]> {
  return apiRequest('/api/comparisons', { signal }, ComparisonSummaryListSchema);
}

export function usePastComparisons(enabled = true) {
  return useQuery({
    queryKey: PAST_COMPARISONS_QUERY_KEY,
    queryFn: ({ signal }) => listComparisons(signal),
    enabled,
  });
}
