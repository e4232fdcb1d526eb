import { type RegenerateRequest, type SuiteComparison, SuiteComparisonSchema } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { compareKeys, suitePath } from './keys';

export interface RegenerateVariables {
  projectId: string;
  suiteId: string;
  body: RegenerateRequest;
  /** Leaving the screen or 'Cancel' stops waiting for the answer. */
  signal: AbortSignal;
}

/**
 * POST …/suites/{suite}/regenerate: a generation on the environment, matched to the saved cases (slow:
 * as long as a generation). Nothing is saved until cases are accepted.
 */
export function regenerate({
  projectId,
  suiteId,
  body,
  signal,
}: RegenerateVariables): Promise<SuiteComparison> {
  return apiRequest(
    suitePath(projectId, suiteId, 'regenerate'),
    { method: 'POST', body, signal },
    SuiteComparisonSchema,
  );
}

export function useRegenerate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regenerate,
    // The review opens on the answer without asking for it again.
    onSuccess: (comparison) => queryClient.setQueryData(compareKeys.comparison(comparison.id), comparison),
  });
}
