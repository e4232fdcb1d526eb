import { type Session, SessionSchema, type SessionUpdate } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { sessionKeys } from './keys';

/** PUT /api/sessions/{id} with {title, session_type, description, url, status, settings}. */
export function updateSession(id: string, body: SessionUpdate): Promise<Session> {
  return apiRequest(`/api/sessions/${encodeURIComponent(id)}`, { method: 'PUT', body }, SessionSchema);
}

/** The raw call; `useSessions().updateSession` keeps the local change when the server refuses. */
export function useUpdateSessionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: SessionUpdate }) => updateSession(id, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}
