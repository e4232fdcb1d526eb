import type { HistoryQuery } from '@argus/protocol';

/** Query keys of the history screens; everything under ['history'], so one invalidation reloads them. */
export const historyKeys = {
  all: ['history'] as const,
  list: (query: HistoryQuery) => ['history', 'list', query] as const,
  run: (runId: string) => ['history', 'run', runId] as const,
  testRun: (runId: string) => ['history', 'test-run', runId] as const,
  caseHistory: (runId: string, name: string) => ['history', 'case', runId, name] as const,
  project: (projectId: string) => ['history', 'project', projectId] as const,
  suites: (projectId: string) => ['history', 'project', projectId, 'suites'] as const,
};
