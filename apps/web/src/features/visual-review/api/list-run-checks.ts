import { type VisualRunChecks, VisualRunChecksSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { runChecksPath, visualKeys } from './keys';

/**
 * GET /api/runs/{id}/visual-checks: the run's visual checks and how many wait for review. Their image
 * links are signed and expire: the list is read again when an image no longer opens.
 */
export function listRunVisualChecks(runId: string, signal?: AbortSignal): Promise<VisualRunChecks> {
  return apiRequest(runChecksPath(runId), { signal }, VisualRunChecksSchema);
}

export function useRunVisualChecks(runId: string) {
  return useQuery({
    queryKey: visualKeys.run(runId),
    queryFn: ({ signal }) => listRunVisualChecks(runId, signal),
    enabled: runId !== '',
  });
}
