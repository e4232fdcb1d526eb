import { type Project, ProjectSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { projectKeys, projectPath } from './keys';

/** GET /api/projects/{id}: the project with its environments and login (404 for another user's). */
export function getProject(projectId: string, signal?: AbortSignal): Promise<Project> {
  return apiRequest(projectPath(projectId), { signal }, ProjectSchema);
}

/** One project; `null` asks for none (nothing is fetched). */
export function useProject(projectId: string | null) {
  return useQuery({
    queryKey: projectKeys.detail(projectId ?? ''),
    queryFn: ({ signal }) => getProject(projectId ?? '', signal),
    enabled: projectId !== null && projectId !== '',
  });
}
