import { type Session, SessionSchema } from '@argus/protocol';
import { apiRequest } from '../../../lib/api-client';

/** DELETE /api/sessions/{id}; answers the deleted session. */
export function deleteSession(id: string): Promise<Session> {
  return apiRequest(`/api/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }, SessionSchema);
}
