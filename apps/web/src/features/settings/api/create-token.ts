import { type ApiTokenCreate, type ApiTokenCreated, ApiTokenCreatedSchema } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { TOKENS_QUERY_KEY } from './list-tokens';

/** POST /api/tokens: makes a token; the answer holds its value, the only time it is given. */
export function createToken(body: ApiTokenCreate): Promise<ApiTokenCreated> {
  return apiRequest('/api/tokens', { method: 'POST', body }, ApiTokenCreatedSchema);
}

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TOKENS_QUERY_KEY }),
  });
}
