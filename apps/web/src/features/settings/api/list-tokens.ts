import { type ApiToken, ApiTokenSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const TOKENS_QUERY_KEY = ['api-tokens'] as const;

const TokenListSchema = ApiTokenSchema.array();

/** GET /api/tokens: the user's API tokens, newest first, without their values. */
export function listTokens(signal?: AbortSignal): Promise<ApiToken[]> {
  return apiRequest('/api/tokens', { signal }, TokenListSchema);
}

export function useTokens() {
  return useQuery({ queryKey: TOKENS_QUERY_KEY, queryFn: ({ signal }) => listTokens(signal) });
}
