import { type SettingsResponse, SettingsResponseSchema, type SettingsUpdate } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { SETTINGS_QUERY_KEY } from './get-settings';

/** PUT /api/settings: a partial change (absent keeps, null clears); answers the settings as stored. */
export function updateSettings(body: SettingsUpdate): Promise<SettingsResponse> {
  return apiRequest('/api/settings', { method: 'PUT', body }, SettingsResponseSchema);
}

/** Saves a change and puts the answer in the settings query, so every panel shows what is stored. */
export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: (settings) => queryClient.setQueryData(SETTINGS_QUERY_KEY, settings),
  });
}
