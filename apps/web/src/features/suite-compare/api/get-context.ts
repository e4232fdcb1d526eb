import { type Project, ProjectSchema, type SavedSuite, SavedSuiteSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { compareKeys, suitePath } from './keys';

/** GET /api/projects/{id}: the environments a regeneration may run on. */
export function useProjectEnvironments(projectId: string) {
  return useQuery({
    queryKey: compareKeys.project(projectId),
    queryFn: ({ signal }): Promise<Project> =>
      apiRequest(`/api/projects/${encodeURIComponent(projectId)}`, { signal }, ProjectSchema),
    enabled: projectId !== '',
  });
}

/** GET /api/projects/{id}/suites/{suite}: the suite regenerated (its name, version, cases). */
export function useSuite(projectId: string, suiteId: string) {
  return useQuery({
    queryKey: compareKeys.suite(projectId, suiteId),
    queryFn: ({ signal }): Promise<SavedSuite> =>
      apiRequest(suitePath(projectId, suiteId), { signal }, SavedSuiteSchema),
    enabled: projectId !== '' && suiteId !== '',
  });
}
