/** The query of GET /api/failure-groups (FailureGroupQuerySchema), as a screen sends it. */
export interface FailureGroupFilter {
  project_id?: string;
  /** ISO date or timestamp. */
  since?: string;
  limit?: number;
}

/** TanStack Query keys of the case diagnostics view, under one root. */
export const caseDiagnosticsKeys = {
  all: ['case-diagnostics'] as const,
  diagnostics: (runId: string, resultId: string) =>
    [...caseDiagnosticsKeys.all, 'entries', runId, resultId] as const,
  run: (runId: string, version: string) => [...caseDiagnosticsKeys.all, 'run', runId, version] as const,
  groups: (query: FailureGroupFilter) => [...caseDiagnosticsKeys.all, 'groups', query] as const,
};

/** `/api/runs/{runId}/cases/{resultId}/…`: a case's files. */
export function casePath(runId: string, resultId: string, file: string): string {
  return `/api/runs/${encodeURIComponent(runId)}/cases/${encodeURIComponent(resultId)}/${file}`;
}
