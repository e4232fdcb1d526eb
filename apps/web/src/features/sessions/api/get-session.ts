import { type Session, SessionSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { sessionKeys } from './keys';

/** GET /api/sessions/{id}. */
export function getSession(id: string, signal?: AbortSignal): Promise<Session> {
  return apiRequest(`/api/sessions/${encodeURIComponent(id)}`, { signal }, SessionSchema);
}

export function useSessionQuery(id: string | null | undefined) {
  return useQuery({
    queryKey: sessionKeys.detail(id ?? ''),
    queryFn: ({ signal }) => getSession(id as string, signal),
    enabled: Boolean(id),
  });
}
