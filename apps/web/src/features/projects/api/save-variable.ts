import { type Variable, type VariableInput, VariableSchema } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { projectKeys, projectPath, refreshAfterChange } from './keys';

/**
 * PUT /api/projects/{id}/variables: sets a variable or a secret by name and scope (replacing one of the
 * same name there). The answer never holds a secret's value.
 */
export function saveVariable(projectId: string, body: VariableInput): Promise<Variable> {
  return apiRequest(projectPath(projectId, 'variables'), { method: 'PUT', body }, VariableSchema);
}

export function useSaveVariable(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: VariableInput) => saveVariable(projectId, body),
    onSuccess: () => refreshAfterChange(queryClient, projectId, projectKeys.variables(projectId)),
  });
}
