import { type Session, SessionSchema, type SessionUpdate } from '@argus/protocol';
import { apiRequest } from '../../../lib/api-client';

/** PUT /api/sessions/{id} with {title, session_type, description, url, status, settings}. */
export function updateSession(id: string, body: SessionUpdate): Promise<Session> {
  return apiRequest(`/api/sessions/${encodeURIComponent(id)}`, { method: 'PUT', body }, SessionSchema);
}
