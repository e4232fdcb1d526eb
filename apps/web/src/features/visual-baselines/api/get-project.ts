import { type Project, ProjectSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { PROJECTS_QUERY_KEY } from '../../../lib/projects/project-list';

/**
 * GET /api/projects/{id}: the project's name and environments. Kept under the projects' key for one
 * project, so a change on the project page (a new environment) shows here too.
 */
export function useBaselinesProject(projectId: string) {
  return useQuery({
    queryKey: [...PROJECTS_QUERY_KEY, 'detail', projectId],
    queryFn: ({ signal }): Promise<Project> =>
      apiRequest(`/api/projects/${encodeURIComponent(projectId)}`, { signal }, ProjectSchema),
    enabled: projectId !== '',
  });
}
