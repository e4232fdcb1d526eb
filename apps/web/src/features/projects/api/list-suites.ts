import { type SavedSuite, SavedSuiteSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { projectKeys, projectPath } from './keys';

const SavedSuiteListSchema = z.array(SavedSuiteSchema);

/** GET /api/projects/{id}/suites: the project's saved suites, each with its cases and version history. */
export function listSuites(projectId: string, signal?: AbortSignal): Promise<SavedSuite[]> {
  return apiRequest(projectPath(projectId, 'suites'), { signal }, SavedSuiteListSchema);
}

/** A project's saved suites; `null` asks for none. */
export function useProjectSuites(projectId: string | null) {
  return useQuery({
    queryKey: projectKeys.suites(projectId ?? ''),
    queryFn: ({ signal }) => listSuites(projectId ?? '', signal),
    enabled: projectId !== null && projectId !== '',
  });
}
