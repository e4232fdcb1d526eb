import { type ApiToken, ApiTokenSchema } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { TOKENS_QUERY_KEY } from './list-tokens';

/** DELETE /api/tokens/{id}: the token stops working at once; it stays listed as revoked. */
export function revokeToken(id: string): Promise<ApiToken> {
  return apiRequest(`/api/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' }, ApiTokenSchema);
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TOKENS_QUERY_KEY }),
  });
}
