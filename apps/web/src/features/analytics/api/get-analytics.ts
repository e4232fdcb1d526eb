import { type Analytics, type AnalyticsQuery, AnalyticsSchema } from '@argus/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/analytics: a range's charts and ranked lists, computed by the server. */
export function getAnalytics(query: AnalyticsQuery, signal?: AbortSignal): Promise<Analytics> {
  return apiRequest('/api/analytics', { query: { ...query }, signal }, AnalyticsSchema);
}

/** The analytics of a range; the previous range's stay on screen while the next loads. */
export function useAnalytics(query: AnalyticsQuery) {
  return useQuery({
    queryKey: ['analytics', query],
    queryFn: ({ signal }) => getAnalytics(query, signal),
    placeholderData: keepPreviousData,
  });
}
