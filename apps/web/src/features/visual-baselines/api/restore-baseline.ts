import { type VisualBaseline, VisualBaselineSchema } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { baselineKeys, baselinePath } from './keys';

/** POST /api/visual-baselines/{id}/restore: an earlier baseline is the check's baseline again. */
export function restoreBaseline(baselineId: string): Promise<VisualBaseline> {
  return apiRequest(baselinePath(baselineId, 'restore'), { method: 'POST' }, VisualBaselineSchema);
}

export function useRestoreBaseline() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreBaseline,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: baselineKeys.all }),
  });
}
