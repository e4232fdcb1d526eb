import { type CaseRepairList, CaseRepairListSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { repairKeys, suitePath } from './keys';

/** GET /api/projects/{id}/suites/{suite}/repairs?status=proposed: the proposals waiting for review. */
export function listSuiteRepairs(
  projectId: string,
  suiteId: string,
  signal?: AbortSignal,
): Promise<CaseRepairList> {
  return apiRequest(
    suitePath(projectId, suiteId, 'repairs'),
    { signal, query: { status: 'proposed' } },
    CaseRepairListSchema,
  );
}

export function useSuiteRepairs(projectId: string, suiteId: string) {
  return useQuery({
    queryKey: repairKeys.suite(projectId, suiteId),
    queryFn: ({ signal }) => listSuiteRepairs(projectId, suiteId, signal),
    enabled: projectId !== '' && suiteId !== '',
  });
}
