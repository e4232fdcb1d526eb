import { type Session, SessionSchema } from '@argus/protocol';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/sessions/{id}. */
export function getSession(id: string, signal?: AbortSignal): Promise<Session> {
  return apiRequest(`/api/sessions/${encodeURIComponent(id)}`, { signal }, SessionSchema);
}
