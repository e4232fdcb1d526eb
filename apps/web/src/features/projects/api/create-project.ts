import { type Project, type ProjectCreate, ProjectSchema } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { PROJECT_LIST_QUERY_KEY, projectKeys } from './keys';

/** POST /api/projects: a project with its first environments; answers it as stored (201). */
export function createProject(body: ProjectCreate): Promise<Project> {
  return apiRequest('/api/projects', { method: 'POST', body }, ProjectSchema);
}

export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProject,
    onSuccess: (project) => {
      queryClient.setQueryData(projectKeys.detail(project.id), project);
      return queryClient.invalidateQueries({ queryKey: PROJECT_LIST_QUERY_KEY });
    },
  });
}
