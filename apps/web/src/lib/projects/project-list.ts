import { type ProjectSummary, ProjectSummarySchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../api-client';

/**
 * The signed-in user's projects, shared by the sidebar (the shell) and the projects screens: neither
 * feature imports the other, so the list they both read lives here. Every query of the projects
 * feature sits under this key, so a change anywhere in a project refreshes the list too.
 */
export const PROJECTS_QUERY_KEY = ['projects'] as const;
export const PROJECT_LIST_QUERY_KEY = [...PROJECTS_QUERY_KEY, 'list'] as const;

const ProjectSummaryListSchema = ProjectSummarySchema.array();

/** GET /api/projects: the user's projects (id, name, kind, last change). */
export function listProjects(signal?: AbortSignal): Promise<ProjectSummary[]> {
  return apiRequest('/api/projects', { signal }, ProjectSummaryListSchema);
}

export function useProjectList(enabled = true) {
  return useQuery({
    queryKey: PROJECT_LIST_QUERY_KEY,
    queryFn: ({ signal }) => listProjects(signal),
    enabled,
  });
}
