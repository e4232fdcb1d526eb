import { type SavedSuite, SavedSuiteSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { historyKeys } from './keys';

const SavedSuiteListSchema = SavedSuiteSchema.array();

/** GET /api/projects/{id}/suites: the project's saved suites, for the suite filter. */
export function listSuites(projectId: string, signal?: AbortSignal): Promise<SavedSuite[]> {
  return apiRequest(
    `/api/projects/${encodeURIComponent(projectId)}/suites`,
    { signal },
    SavedSuiteListSchema,
  );
}

/** A project's saved suites; nothing is fetched for ''. */
export function useSuites(projectId: string) {
  return useQuery({
    queryKey: historyKeys.suites(projectId),
    queryFn: ({ signal }) => listSuites(projectId, signal),
    enabled: projectId !== '',
  });
}
