import { type SuiteComparison, SuiteComparisonSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { compareKeys, suitePath } from './keys';

/** GET …/suites/{suite}/comparisons/{comparison}: a regeneration's comparison, to review again. */
export function getComparison(
  projectId: string,
  suiteId: string,
  comparisonId: string,
  signal?: AbortSignal,
): Promise<SuiteComparison> {
  return apiRequest(
    suitePath(projectId, suiteId, 'comparisons', comparisonId),
    { signal },
    SuiteComparisonSchema,
  );
}

export function useComparison(projectId: string, suiteId: string, comparisonId: string) {
  return useQuery({
    queryKey: compareKeys.comparison(comparisonId),
    queryFn: ({ signal }) => getComparison(projectId, suiteId, comparisonId, signal),
    enabled: comparisonId !== '',
  });
}
