import { type SavedSuite, SavedSuiteSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { PROJECTS_QUERY_KEY } from '../../../lib/projects/project-list';
import { suitePath } from './keys';

/**
 * GET /api/projects/{id}/suites/{suite}: the suite the proposals repair (its name and version). Kept
 * under the projects' key for one suite, so a save anywhere refreshes it here too.
 */
export function useSuite(projectId: string, suiteId: string) {
  return useQuery({
    queryKey: [...PROJECTS_QUERY_KEY, 'detail', projectId, 'suites', suiteId],
    queryFn: ({ signal }): Promise<SavedSuite> =>
      apiRequest(suitePath(projectId, suiteId), { signal }, SavedSuiteSchema),
    enabled: projectId !== '' && suiteId !== '',
  });
}
