/** Query keys of the visual review; everything under ['visual-review'], so a decision reloads every list. */
export const visualKeys = {
  all: ['visual-review'] as const,
  run: (runId: string) => ['visual-review', 'run', runId] as const,
  history: (baselineId: string) => ['visual-review', 'history', baselineId] as const,
};

/** `/api/runs/{id}/visual-checks` and below, each segment escaped. */
export function runChecksPath(runId: string, ...rest: string[]): string {
  return [`/api/runs/${encodeURIComponent(runId)}/visual-checks`]
    .concat(rest.map(encodeURIComponent))
    .join('/');
}

/** `/api/visual-baselines/{id}` and below, each segment escaped. */
export function baselinePath(baselineId: string, ...rest: string[]): string {
  return [`/api/visual-baselines/${encodeURIComponent(baselineId)}`]
    .concat(rest.map(encodeURIComponent))
    .join('/');
}
