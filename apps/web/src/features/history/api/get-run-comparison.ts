import { type RunComparison, RunComparisonSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { historyKeys } from './keys';

/** GET /api/history/runs/{id}: the run's history line and its comparison with the previous run. */
export function getRunComparison(runId: string, signal?: AbortSignal): Promise<RunComparison> {
  return apiRequest(`/api/history/runs/${encodeURIComponent(runId)}`, { signal }, RunComparisonSchema);
}

export function useRunComparison(runId: string) {
  return useQuery({
    queryKey: historyKeys.run(runId),
    queryFn: ({ signal }) => getRunComparison(runId, signal),
    enabled: runId !== '',
  });
}
