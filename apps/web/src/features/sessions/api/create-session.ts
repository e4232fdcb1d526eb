import { type Session, type SessionCreate, SessionSchema } from '@argus/protocol';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/sessions/ with {title, session_type, description, url, settings}. */
export function createSession(body: SessionCreate): Promise<Session> {
  return apiRequest('/api/sessions/', { method: 'POST', body }, SessionSchema);
}
