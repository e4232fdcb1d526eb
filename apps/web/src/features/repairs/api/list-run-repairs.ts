import { type CaseRepairList, CaseRepairListSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { repairKeys } from './keys';

/** GET /api/runs/{id}/repairs: every verdict of the run's failed cases. */
export function listRunRepairs(runId: string, signal?: AbortSignal): Promise<CaseRepairList> {
  return apiRequest(`/api/runs/${encodeURIComponent(runId)}/repairs`, { signal }, CaseRepairListSchema);
}

export function useRunRepairs(runId: string) {
  return useQuery({
    queryKey: repairKeys.run(runId),
    queryFn: ({ signal }) => listRunRepairs(runId, signal),
    enabled: runId !== '',
  });
}
