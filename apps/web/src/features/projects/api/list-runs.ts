import { type ProjectRun, ProjectRunSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { projectKeys, projectPath } from './keys';

const ProjectRunListSchema = z.array(ProjectRunSchema);

/** GET /api/projects/{id}/runs: the project's recent runs, with their environment and results. */
export function listProjectRuns(projectId: string, signal?: AbortSignal): Promise<ProjectRun[]> {
  return apiRequest(projectPath(projectId, 'runs'), { signal }, ProjectRunListSchema);
}

export function useProjectRuns(projectId: string | null) {
  return useQuery({
    queryKey: projectKeys.runs(projectId ?? ''),
    queryFn: ({ signal }) => listProjectRuns(projectId ?? '', signal),
    enabled: projectId !== null && projectId !== '',
  });
}
