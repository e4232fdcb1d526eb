import type { SavedSuiteInput } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { createSuite } from './create-suite';
import { projectKeys, refreshAfterChange } from './keys';
import { updateSuite } from './update-suite';

export interface SaveSuiteVariables {
  projectId: string;
  /** Absent: a new suite. Present: a new version of that one. */
  suiteId?: string;
  suite: SavedSuiteInput;
}

/** Whether a save failed because the suite changed since it was opened (SUITE_VERSION_CONFLICT). */
export function isSuiteVersionConflict(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409;
}

/**
 * Saves test cases to a project as a new suite, or as a new version of one (`suiteId`); answers the
 * suite as stored. The project's suite list and that suite are refreshed.
 */
export function useSaveSuite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ projectId, suiteId, suite }: SaveSuiteVariables) =>
      suiteId ? updateSuite(projectId, suiteId, suite) : createSuite(projectId, suite),
    onSuccess: (saved, { projectId }) => {
      queryClient.setQueryData(projectKeys.suite(projectId, saved.id), saved);
      return refreshAfterChange(queryClient, projectId, projectKeys.suites(projectId));
    },
  });
}
