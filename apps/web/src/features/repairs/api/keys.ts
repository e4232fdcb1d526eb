/** Query keys of the repairs review; everything under ['repairs'], so a decision reloads every list. */
export const repairKeys = {
  all: ['repairs'] as const,
  run: (runId: string) => ['repairs', 'run', runId] as const,
  suite: (projectId: string, suiteId: string) => ['repairs', 'suite', projectId, suiteId] as const,
  screenshot: (id: string) => ['repairs', 'screenshot', id] as const,
};

/** `/api/projects/{id}/suites/{suite}` and below, each segment escaped. */
export function suitePath(projectId: string, suiteId: string, ...rest: string[]): string {
  return [`/api/projects/${encodeURIComponent(projectId)}/suites/${encodeURIComponent(suiteId)}`]
    .concat(rest.map(encodeURIComponent))
    .join('/');
}
