import { type VisualRunChecks, VisualRunChecksSchema } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { runChecksPath, visualKeys } from './keys';

/** POST /api/runs/{id}/visual-checks/approve-all: every check of the run still waiting, approved. */
export function approveAllVisualChecks(runId: string): Promise<VisualRunChecks> {
  return apiRequest(runChecksPath(runId, 'approve-all'), { method: 'POST' }, VisualRunChecksSchema);
}

/** The answer is the run's list as it now stands; the other visual lists are read again. */
export function useApproveAllVisualChecks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveAllVisualChecks,
    onSuccess: (result, runId) => {
      queryClient.setQueryData(visualKeys.run(runId), result);
      return queryClient.invalidateQueries({ queryKey: visualKeys.all });
    },
  });
}
