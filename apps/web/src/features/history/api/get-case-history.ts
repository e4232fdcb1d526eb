import { type CaseHistory, CaseHistorySchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { historyKeys } from './keys';

/** GET /api/history/cases?name=&run_id=: a case's last results in its run's suite, failures grouped. */
export function getCaseHistory(runId: string, name: string, signal?: AbortSignal): Promise<CaseHistory> {
  return apiRequest('/api/history/cases', { query: { name, run_id: runId }, signal }, CaseHistorySchema);
}

/** A case's history; fetched only once `enabled` (its card came into view). */
export function useCaseHistory(runId: string, name: string, enabled: boolean) {
  return useQuery({
    queryKey: historyKeys.caseHistory(runId, name),
    queryFn: ({ signal }) => getCaseHistory(runId, name, signal),
    enabled,
  });
}
