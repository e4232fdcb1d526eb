import { type StorageUsage, StorageUsageSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const STORAGE_QUERY_KEY = ['settings', 'storage'] as const;

/** GET /api/settings/storage: what the user keeps, their quota, and how long history is kept. */
export function getStorage(signal?: AbortSignal): Promise<StorageUsage> {
  return apiRequest('/api/settings/storage', { signal }, StorageUsageSchema);
}

export function useStorage() {
  return useQuery({ queryKey: STORAGE_QUERY_KEY, queryFn: ({ signal }) => getStorage(signal) });
}
