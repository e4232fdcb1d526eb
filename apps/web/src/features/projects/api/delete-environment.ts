import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { PROJECT_LIST_QUERY_KEY, projectKeys, projectPath } from './keys';

/** DELETE /api/projects/{id}/environments/{envId} (204); the last one is refused (400, with why). */
export async function deleteEnvironment(projectId: string, environmentId: string): Promise<void> {
  await apiRequest(projectPath(projectId, 'environments', environmentId), { method: 'DELETE' });
}

/** Deletes an environment; the project is read again, with its variables (an environment's go with it). */
export function useDeleteEnvironment(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (environmentId: string) => deleteEnvironment(projectId, environmentId),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectId) }),
        queryClient.invalidateQueries({ queryKey: PROJECT_LIST_QUERY_KEY }),
      ]),
  });
}
