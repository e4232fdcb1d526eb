import { type VisualBaselineList, VisualBaselineListSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { baselineKeys, projectBaselinesPath } from './keys';

/**
 * GET /api/projects/{id}/visual-baselines: the current baseline of each check on an environment and
 * branch ('' the default branch). Their image links are signed and expire: the list is read again when
 * one no longer opens.
 */
export function listBaselines(
  projectId: string,
  environmentId: string,
  branch: string,
  signal?: AbortSignal,
): Promise<VisualBaselineList> {
  return apiRequest(
    projectBaselinesPath(projectId),
    { signal, query: { environment_id: environmentId || undefined, branch: branch || undefined } },
    VisualBaselineListSchema,
  );
}

export function useBaselines(projectId: string, environmentId: string, branch: string) {
  return useQuery({
    queryKey: baselineKeys.list(projectId, environmentId, branch),
    queryFn: ({ signal }) => listBaselines(projectId, environmentId, branch, signal),
    enabled: projectId !== '' && environmentId !== '',
  });
}
