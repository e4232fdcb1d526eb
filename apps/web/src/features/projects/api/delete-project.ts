import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { PROJECT_LIST_QUERY_KEY, projectKeys, projectPath } from './keys';

/** DELETE /api/projects/{id}: the project with its environments, variables and suites (204). */
export async function deleteProject(projectId: string): Promise<void> {
  await apiRequest(projectPath(projectId), { method: 'DELETE' });
}

export function useDeleteProject(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteProject(projectId),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: projectKeys.detail(projectId) });
      return queryClient.invalidateQueries({ queryKey: PROJECT_LIST_QUERY_KEY });
    },
  });
}
