import { type VisualBaselineList, VisualBaselineListSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { baselineKeys, baselinePath } from './keys';

/** GET /api/visual-baselines/{id}/history: the check's baselines, newest first. */
export function getBaselineHistory(baselineId: string, signal?: AbortSignal): Promise<VisualBaselineList> {
  return apiRequest(baselinePath(baselineId, 'history'), { signal }, VisualBaselineListSchema);
}

/** Read only while the history is open. */
export function useBaselineHistory(baselineId: string, enabled: boolean) {
  return useQuery({
    queryKey: baselineKeys.history(baselineId),
    queryFn: ({ signal }) => getBaselineHistory(baselineId, signal),
    enabled: enabled && baselineId !== '',
  });
}
