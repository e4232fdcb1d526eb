import { PROJECTS_QUERY_KEY } from '../../../lib/projects/project-list';

/** Query keys of the comparison review; a suite's own sits under the projects' key, as there. */
export const compareKeys = {
  comparison: (comparisonId: string) => ['suite-compare', comparisonId] as const,
  project: (projectId: string) => [...PROJECTS_QUERY_KEY, 'detail', projectId] as const,
  suite: (projectId: string, suiteId: string) =>
    [...PROJECTS_QUERY_KEY, 'detail', projectId, 'suites', suiteId] as const,
};

/** `/api/projects/{id}/suites/{suite}` and below, each segment escaped. */
export function suitePath(projectId: string, suiteId: string, ...rest: string[]): string {
  return [`/api/projects/${encodeURIComponent(projectId)}/suites/${encodeURIComponent(suiteId)}`]
    .concat(rest.map(encodeURIComponent))
    .join('/');
}
