import { type Session, type SessionListQuery, SessionSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { sessionKeys } from './keys';

/** GET /api/sessions/ (trailing slash, spec §7): the signed-in user's sessions. */
export function listSessions(query: SessionListQuery = {}, signal?: AbortSignal): Promise<Session[]> {
  const { session_type, status, limit, offset } = query;
  return apiRequest(
    '/api/sessions/',
    {
      query: {
        session_type,
        status,
        limit: limit as number | undefined,
        offset: offset as number | undefined,
      },
      signal,
    },
    SessionSchema.array(),
  );
}

/** The raw server list. Most screens want `useSessions()`, which adds the cache and local-only sessions. */
export function useSessionsQuery(query?: SessionListQuery, enabled = true) {
  return useQuery({
    queryKey: sessionKeys.list(query),
    queryFn: ({ signal }) => listSessions(query, signal),
    enabled,
  });
}
