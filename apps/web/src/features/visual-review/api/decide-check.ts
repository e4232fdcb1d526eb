import { type VisualDecision, type VisualRunCheck, VisualRunCheckSchema } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { runChecksPath, visualKeys } from './keys';

export interface DecideVariables {
  check: VisualRunCheck;
  decision: VisualDecision['decision'];
  /** Why it is rejected, in the reviewer's words (a rejection's; empty: none). */
  reason?: string;
}

/**
 * POST /api/runs/{id}/visual-checks/{check}/decision: approve (the capture becomes the baseline) or
 * reject (a bug: the baseline stays). 409 CONFLICT when it was decided already.
 */
export function decideVisualCheck({ check, decision, reason }: DecideVariables): Promise<VisualRunCheck> {
  const body: VisualDecision = reason ? { decision, reason } : { decision };
  return apiRequest(
    runChecksPath(check.run_id, check.id, 'decision'),
    { method: 'POST', body },
    VisualRunCheckSchema,
  );
}

/** After a decision every visual list is read again (the run's checks, the baselines' histories). */
export function useDecideVisualCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideVisualCheck,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: visualKeys.all }),
  });
}
