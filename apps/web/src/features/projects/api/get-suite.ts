import { type SavedSuite, SavedSuiteSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { projectKeys, projectPath } from './keys';

/** GET /api/projects/{id}/suites/{suiteId}: one saved suite at its latest version. */
export function getSuite(projectId: string, suiteId: string, signal?: AbortSignal): Promise<SavedSuite> {
  return apiRequest(projectPath(projectId, 'suites', suiteId), { signal }, SavedSuiteSchema);
}

/** One saved suite; either id `null` asks for none. */
export function useSavedSuite(projectId: string | null, suiteId: string | null) {
  return useQuery({
    queryKey: projectKeys.suite(projectId ?? '', suiteId ?? ''),
    queryFn: ({ signal }) => getSuite(projectId ?? '', suiteId ?? '', signal),
    enabled: Boolean(projectId) && Boolean(suiteId),
  });
}
