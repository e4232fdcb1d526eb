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

/** How often the list is read again while one of its runs is under way. */
const UNDER_WAY_REFRESH_MS = 5000;

/** A project's recent runs; read again every few seconds while one is pending or running. */
export function useProjectRuns(projectId: string | null) {
  return useQuery({
    queryKey: projectKeys.runs(projectId ?? ''),
    queryFn: ({ signal }) => listProjectRuns(projectId ?? '', signal),
    enabled: projectId !== null && projectId !== '',
    refetchInterval: (query) =>
      query.state.data?.some((run) => run.status === 'pending' || run.status === 'running')
        ? UNDER_WAY_REFRESH_MS
        : false,
  });
}
