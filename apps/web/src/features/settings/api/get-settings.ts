import { type SettingsResponse, SettingsResponseSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const SETTINGS_QUERY_KEY = ['settings'] as const;

/** GET /api/settings: the signed-in user's settings, secrets masked, with this month's usage. */
export function getSettings(signal?: AbortSignal): Promise<SettingsResponse> {
  return apiRequest('/api/settings', { signal }, SettingsResponseSchema);
}

export function useSettings() {
  return useQuery({ queryKey: SETTINGS_QUERY_KEY, queryFn: ({ signal }) => getSettings(signal) });
}
