import {
  type TestConnectionRequest,
  type TestConnectionResponse,
  TestConnectionResponseSchema,
} from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { SETTINGS_QUERY_KEY } from './get-settings';

/** POST /api/settings/test-connection: one tiny model call and what came back. */
export function testConnection(body: TestConnectionRequest): Promise<TestConnectionResponse> {
  return apiRequest('/api/settings/test-connection', { method: 'POST', body }, TestConnectionResponseSchema);
}

/** Tests a connection; the call counts in the month's usage, so the settings are read again after. */
export function useTestConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: testConnection,
    onSettled: () => queryClient.invalidateQueries({ queryKey: SETTINGS_QUERY_KEY }),
  });
}
