import { type Session, SessionSchema } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { sessionKeys } from './keys';

/** DELETE /api/sessions/{id}; answers the deleted session. */
export function deleteSession(id: string): Promise<Session> {
  return apiRequest(`/api/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }, SessionSchema);
}

/** The raw call; `useSessions().deleteSession` also handles local-only sessions. */
export function useDeleteSessionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}
