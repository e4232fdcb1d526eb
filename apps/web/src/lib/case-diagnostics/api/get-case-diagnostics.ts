import { type CaseDiagnostics, CaseDiagnosticsSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../api-client';
import { caseDiagnosticsKeys, casePath } from './keys';

/** GET /api/runs/{runId}/cases/{resultId}/diagnostics: the case's console and network. */
export function getCaseDiagnostics(
  runId: string,
  resultId: string,
  signal?: AbortSignal,
): Promise<CaseDiagnostics> {
  return apiRequest(casePath(runId, resultId, 'diagnostics'), { signal }, CaseDiagnosticsSchema);
}

/** Loaded only once the case's console and network are opened (`enabled`); kept, they do not change. */
export function useCaseDiagnostics(runId: string, resultId: string, enabled: boolean) {
  return useQuery({
    queryKey: caseDiagnosticsKeys.diagnostics(runId, resultId),
    queryFn: ({ signal }) => getCaseDiagnostics(runId, resultId, signal),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
