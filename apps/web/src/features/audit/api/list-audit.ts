import { type AuditPage, AuditPageSchema, type AuditQuery } from '@argus/protocol';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** Rows per page. */
export const AUDIT_PAGE_SIZE = 50;

export const auditKeys = {
  all: ['audit'] as const,
  list: (query: AuditQuery) => ['audit', 'list', query] as const,
};

/** GET /api/audit: a page of the organization's log, newest first, after `cursor`. */
export function listAudit(query: AuditQuery, signal?: AbortSignal): Promise<AuditPage> {
  const { limit, ...rest } = query;
  return apiRequest(
    '/api/audit',
    { query: { ...rest, limit: typeof limit === 'number' ? limit : undefined }, signal },
    AuditPageSchema,
  );
}

/** The log under some filters, a page at a time ('Load more' asks for the page after the last). */
export function useAuditLog(query: AuditQuery) {
  return useInfiniteQuery({
    queryKey: auditKeys.list(query),
    queryFn: ({ pageParam, signal }) =>
      listAudit({ ...query, limit: AUDIT_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) }, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    // A refusal (below admin) or a bad filter does not get better by asking again.
    retry: false,
  });
}
