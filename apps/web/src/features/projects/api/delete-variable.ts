import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { projectKeys, projectPath, refreshAfterChange } from './keys';

/** DELETE /api/projects/{id}/variables/{varId} (204). */
export async function deleteVariable(projectId: string, variableId: string): Promise<void> {
  await apiRequest(projectPath(projectId, 'variables', variableId), { method: 'DELETE' });
}

export function useDeleteVariable(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variableId: string) => deleteVariable(projectId, variableId),
    onSuccess: () => refreshAfterChange(queryClient, projectId, projectKeys.variables(projectId)),
  });
}
