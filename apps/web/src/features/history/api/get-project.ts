import { type Project, ProjectSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { historyKeys } from './keys';

/** GET /api/projects/{id}: the project, for its environments in the filters. */
export function getProject(projectId: string, signal?: AbortSignal): Promise<Project> {
  return apiRequest(`/api/projects/${encodeURIComponent(projectId)}`, { signal }, ProjectSchema);
}

/** One project; nothing is fetched for ''. */
export function useProject(projectId: string) {
  return useQuery({
    queryKey: historyKeys.project(projectId),
    queryFn: ({ signal }) => getProject(projectId, signal),
    enabled: projectId !== '',
  });
}
