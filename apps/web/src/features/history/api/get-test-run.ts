import { type TestRunDetail, TestRunDetailSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { historyKeys } from './keys';

/** GET /api/automation/test-runs/{id}: the run's cases with their steps, logs and errors. */
export function getTestRun(runId: string, signal?: AbortSignal): Promise<TestRunDetail> {
  return apiRequest(
    `/api/automation/test-runs/${encodeURIComponent(runId)}`,
    { signal },
    TestRunDetailSchema,
  );
}

export function useTestRun(runId: string) {
  return useQuery({
    queryKey: historyKeys.testRun(runId),
    queryFn: ({ signal }) => getTestRun(runId, signal),
    enabled: runId !== '',
  });
}
