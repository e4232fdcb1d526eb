import { PromoteBaselinesResultSchema } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { baselineKeys, projectBaselinesPath } from './keys';

export interface PromoteVariables {
  projectId: string;
  branch: string;
  environmentId: string;
}

/**
 * POST /api/projects/{id}/visual-baselines/promote: each of the branch's newest baselines that differs
 * from the default branch's becomes the default branch's newest; how many did.
 */
export function promoteBranch({
  projectId,
  branch,
  environmentId,
}: PromoteVariables): Promise<{ promoted: number }> {
  return apiRequest(
    projectBaselinesPath(projectId, 'promote'),
    { method: 'POST', body: { branch, environment_id: environmentId || undefined } },
    PromoteBaselinesResultSchema,
  );
}

export function usePromoteBranch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: promoteBranch,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: baselineKeys.all }),
  });
}
