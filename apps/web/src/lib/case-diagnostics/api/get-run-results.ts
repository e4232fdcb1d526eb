import { type TestRunDetail, TestRunDetailSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../api-client';
import { caseDiagnosticsKeys } from './keys';

/** GET /api/automation/test-runs/{id}: the run's stored results, with their failure and artifacts. */
export function getRunResults(runId: string, signal?: AbortSignal): Promise<TestRunDetail> {
  return apiRequest(
    `/api/automation/test-runs/${encodeURIComponent(runId)}`,
    { signal },
    TestRunDetailSchema,
  );
}

/**
 * A run's stored results, for screens that do not load them already (the project's run list, the
 * Automation screen after a run). `version` changes when the run's results do (a rerun), so they are
 * read again; `enabled` false until the cases are opened.
 */
export function useRunResults(runId: string | null, version: string, enabled = true) {
  return useQuery({
    queryKey: caseDiagnosticsKeys.run(runId ?? '', version),
    queryFn: ({ signal }) => getRunResults(runId ?? '', signal),
    enabled: enabled && Boolean(runId),
  });
}
