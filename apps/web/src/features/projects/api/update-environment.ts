import { type Environment, EnvironmentSchema, type EnvironmentUpdate } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { PROJECT_LIST_QUERY_KEY, projectKeys, projectPath } from './keys';

/** PUT /api/projects/{id}/environments/{envId}: name, base URL or default (absent keeps). */
export function updateEnvironment(
  projectId: string,
  environmentId: string,
  body: EnvironmentUpdate,
): Promise<Environment> {
  return apiRequest(
    projectPath(projectId, 'environments', environmentId),
    { method: 'PUT', body },
    EnvironmentSchema,
  );
}

/**
 * Changes an environment; the project is read again, with what hangs on it (making one the default
 * unmarks the other; variables' scopes and runs name it).
 */
export function useUpdateEnvironment(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ environmentId, body }: { environmentId: string; body: EnvironmentUpdate }) =>
      updateEnvironment(projectId, environmentId, body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectId) }),
        queryClient.invalidateQueries({ queryKey: PROJECT_LIST_QUERY_KEY }),
      ]),
  });
}
