import { type AcceptComparison, type SavedSuite, SavedSuiteSchema } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { PROJECTS_QUERY_KEY } from '../../../lib/projects/project-list';
import { suitePath } from './keys';

export interface AcceptVariables {
  projectId: string;
  suiteId: string;
  comparisonId: string;
  body: AcceptComparison;
}

/** POST …/comparisons/{comparison}/accept: the chosen changes saved as one new version. */
export function acceptComparison({
  projectId,
  suiteId,
  comparisonId,
  body,
}: AcceptVariables): Promise<SavedSuite> {
  return apiRequest(
    suitePath(projectId, suiteId, 'comparisons', comparisonId, 'accept'),
    { method: 'POST', body },
    SavedSuiteSchema,
  );
}

/** The project's pages are read again after: the suite has a new version. */
export function useAcceptComparison() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptComparison,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PROJECTS_QUERY_KEY }),
  });
}
