import {
  type ApiTokenCreated,
  ApiTokenCreatedSchema,
  ApiTokenSchema,
  OrganizationTokenSchema,
  type ServiceTokenCreate,
} from '@argus/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { MEMBERS_KEY, ORG_TOKENS_KEY } from './keys';

const TokenListSchema = OrganizationTokenSchema.array();

/** GET /api/organization/tokens: every member's and every service token (admins). */
export function useOrganizationTokens(enabled: boolean) {
  return useQuery({
    queryKey: ORG_TOKENS_KEY,
    queryFn: ({ signal }) => apiRequest('/api/organization/tokens', { signal }, TokenListSchema),
    enabled,
  });
}

/** POST /api/organization/service-tokens: a role of its own; its value is in this answer only. */
export function useCreateServiceToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: ServiceTokenCreate) =>
      apiRequest<ApiTokenCreated>(
        '/api/organization/service-tokens',
        { method: 'POST', body: token },
        ApiTokenCreatedSchema,
      ),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ORG_TOKENS_KEY });
      // A service token comes with its service account, listed among the members.
      await queryClient.invalidateQueries({ queryKey: MEMBERS_KEY });
    },
  });
}

/** DELETE /api/organization/tokens/:id: any token of the organization (admins). */
export function useRevokeOrganizationToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/api/organization/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' }, ApiTokenSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ORG_TOKENS_KEY }),
  });
}
