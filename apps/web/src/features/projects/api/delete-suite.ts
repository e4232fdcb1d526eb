import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { projectKeys, projectPath, refreshAfterChange } from './keys';

/** DELETE /api/projects/{id}/suites/{suiteId} (204). */
export async function deleteSuite(projectId: string, suiteId: string): Promise<void> {
  await apiRequest(projectPath(projectId, 'suites', suiteId), { method: 'DELETE' });
}

export function useDeleteSuite(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (suiteId: string) => deleteSuite(projectId, suiteId),
    onSuccess: (_done, suiteId) => {
      queryClient.removeQueries({ queryKey: projectKeys.suite(projectId, suiteId) });
      return refreshAfterChange(queryClient, projectId, projectKeys.suites(projectId));
    },
  });
}
