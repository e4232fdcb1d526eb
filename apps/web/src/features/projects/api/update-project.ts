import { type Project, ProjectSchema, type ProjectUpdate } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { PROJECT_LIST_QUERY_KEY, projectKeys, projectPath } from './keys';

/** PUT /api/projects/{id}: name, description and login (absent keeps); answers the project as stored. */
export function updateProject(projectId: string, body: ProjectUpdate): Promise<Project> {
  return apiRequest(projectPath(projectId), { method: 'PUT', body }, ProjectSchema);
}

export function useUpdateProject(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProjectUpdate) => updateProject(projectId, body),
    onSuccess: (project) => {
      queryClient.setQueryData(projectKeys.detail(projectId), project);
      return queryClient.invalidateQueries({ queryKey: PROJECT_LIST_QUERY_KEY });
    },
  });
}
