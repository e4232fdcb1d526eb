import { type Session, type SessionCreate, SessionSchema } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { sessionKeys } from './keys';

/** POST /api/sessions/ with {title, session_type, description, url, settings}. */
export function createSession(body: SessionCreate): Promise<Session> {
  return apiRequest('/api/sessions/', { method: 'POST', body }, SessionSchema);
}

/** The raw call; `useSessions().createSession` adds the local-only fallback of spec §4. */
export function useCreateSessionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}
