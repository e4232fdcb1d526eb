import type { QueryClient } from '@tanstack/react-query';
import { PROJECT_LIST_QUERY_KEY, PROJECTS_QUERY_KEY } from '../../../lib/projects/project-list';

export { PROJECT_LIST_QUERY_KEY, PROJECTS_QUERY_KEY };

/**
 * Query keys of one project. Everything sits under the shared `['projects']` key (lib/projects), and
 * the project's variables, suites and runs under its own key, so invalidating a project refreshes
 * what its page shows.
 */
export const projectKeys = {
  detail: (projectId: string) => [...PROJECTS_QUERY_KEY, 'detail', projectId] as const,
  variables: (projectId: string) => [...PROJECTS_QUERY_KEY, 'detail', projectId, 'variables'] as const,
  suites: (projectId: string) => [...PROJECTS_QUERY_KEY, 'detail', projectId, 'suites'] as const,
  suite: (projectId: string, suiteId: string) =>
    [...PROJECTS_QUERY_KEY, 'detail', projectId, 'suites', suiteId] as const,
  runs: (projectId: string) => [...PROJECTS_QUERY_KEY, 'detail', projectId, 'runs'] as const,
};

/** `/api/projects/{id}` and below, each segment escaped. */
export function projectPath(projectId: string, ...rest: string[]): string {
  return ['/api/projects', projectId, ...rest]
    .map((part, i) => (i === 0 ? part : encodeURIComponent(part)))
    .join('/');
}

/**
 * After a change inside a project (a variable, a suite): the server marks the project changed, so its
 * header and the lists that sort by the last change are read again, with the part that changed.
 */
export function refreshAfterChange(
  queryClient: QueryClient,
  projectId: string,
  part: readonly unknown[],
): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: part, exact: true }),
    queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectId), exact: true }),
    queryClient.invalidateQueries({ queryKey: PROJECT_LIST_QUERY_KEY }),
  ]);
}
