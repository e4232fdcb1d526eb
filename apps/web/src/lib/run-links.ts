// Where a run's page is (Test History's, docs/HISTORY.md): declared here, below the features, so every
// screen that names a run (History, the case diagnostics view, the project's runs) links to it alike.

export function runPagePath(runId: string): string {
  return `/history/runs/${encodeURIComponent(runId)}`;
}
