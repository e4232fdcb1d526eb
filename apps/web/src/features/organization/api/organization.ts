import { type Organization, OrganizationSchema, type OrganizationUpdate } from '@argus/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { ORGANIZATIONS_QUERY_KEY } from '../../../lib/organization';
import { ORGANIZATION_KEY } from './keys';

/** GET /api/organization: the organization the screens act in, with the caller's role. */
export function useCurrentOrganization() {
  return useQuery({
    queryKey: ORGANIZATION_KEY,
    queryFn: ({ signal }) => apiRequest('/api/organization', { signal }, OrganizationSchema),
  });
}

/** PUT /api/organization: rename it, or set its SSO domain and rules (owners). */
export function useUpdateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: OrganizationUpdate) =>
      apiRequest<Organization>('/api/organization', { method: 'PUT', body: update }, OrganizationSchema),
    onSuccess: (org) => {
      queryClient.setQueryData(ORGANIZATION_KEY, org);
      // The sidebar's switcher names it too.
      void queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_QUERY_KEY, exact: true });
    },
  });
}

/** DELETE /api/organization: the organization and everything it owns (owners; never a personal one). */
export function useDeleteOrganization() {
  return useMutation({
    mutationFn: () => apiRequest<void>('/api/organization', { method: 'DELETE' }),
  });
}

/** POST /api/organization/leave (not a personal one; the last owner cannot). */
export function useLeaveOrganization() {
  return useMutation({
    mutationFn: () => apiRequest<void>('/api/organization/leave', { method: 'POST' }),
  });
}
