import { type Session, type SessionListQuery, SessionSchema } from '@argus/protocol';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/sessions/ (trailing slash, docs/PRODUCT.md#sessions): the signed-in user's sessions. */
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

/** The largest page `GET /api/sessions/` gives (SessionListQuerySchema). */
const PAGE_SIZE = 500;

/**
 * Every session of the signed-in user, page after page: the counters count them all (docs/PRODUCT.md#sessions), and
 * the server answers at most 500 at a time.
 */
export async function listAllSessions(
  fetchPage: (query: SessionListQuery) => Promise<Session[]> = listSessions,
): Promise<Session[]> {
  const all: Session[] = [];
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const page = await fetchPage({ limit: PAGE_SIZE, offset });
    all.push(...page);
    if (page.length < PAGE_SIZE) return all;
  }
}
