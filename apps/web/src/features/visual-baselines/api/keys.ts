/**
 * Query keys of the baselines screen; everything under ['visual-baselines'], so a restore, a settings
 * change or a promotion reloads every list.
 */
export const baselineKeys = {
  all: ['visual-baselines'] as const,
  list: (projectId: string, environmentId: string, branch: string) =>
    ['visual-baselines', 'list', projectId, environmentId, branch] as const,
  history: (baselineId: string) => ['visual-baselines', 'history', baselineId] as const,
};

/** `/api/projects/{id}/visual-baselines` and below, each segment escaped. */
export function projectBaselinesPath(projectId: string, ...rest: string[]): string {
  return [`/api/projects/${encodeURIComponent(projectId)}/visual-baselines`]
    .concat(rest.map(encodeURIComponent))
    .join('/');
}

/** `/api/visual-baselines/{id}` and below, each segment escaped. */
export function baselinePath(baselineId: string, ...rest: string[]): string {
  return [`/api/visual-baselines/${encodeURIComponent(baselineId)}`]
    .concat(rest.map(encodeURIComponent))
    .join('/');
}
