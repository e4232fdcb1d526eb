import { type HistoryPage, HistoryPageSchema, type HistoryQuery } from '@argus/protocol';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { historyKeys } from './keys';

/** Lines per page: a screenful and a little more. */
export const HISTORY_PAGE_SIZE = 30;

/** GET /api/history: a page of runs, comparisons and conversations, newest first, after `cursor`. */
export function listHistory(query: HistoryQuery, signal?: AbortSignal): Promise<HistoryPage> {
  const { limit, ...rest } = query;
  return apiRequest(
    '/api/history',
    { query: { ...rest, limit: typeof limit === 'number' ? limit : undefined }, signal },
    HistoryPageSchema,
  );
}

/** The history under some filters, a page at a time ('Load more' asks for the page after the last). */
export function useHistory(query: HistoryQuery) {
  return useInfiniteQuery({
    queryKey: historyKeys.list(query),
    queryFn: ({ pageParam, signal }) =>
      listHistory(
        { ...query, limit: HISTORY_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) },
        signal,
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}
