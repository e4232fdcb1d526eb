import { type Environment, type EnvironmentInput, EnvironmentSchema } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { PROJECT_LIST_QUERY_KEY, projectKeys, projectPath } from './keys';

/** POST /api/projects/{id}/environments: a new environment (201). */
export function createEnvironment(projectId: string, body: EnvironmentInput): Promise<Environment> {
  return apiRequest(projectPath(projectId, 'environments'), { method: 'POST', body }, EnvironmentSchema);
}

/** Adds an environment; the project is read again (a new default unmarks the old one). */
export function useCreateEnvironment(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EnvironmentInput) => createEnvironment(projectId, body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectId) }),
        queryClient.invalidateQueries({ queryKey: PROJECT_LIST_QUERY_KEY }),
      ]),
  });
}
