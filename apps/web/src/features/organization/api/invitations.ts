import {
  type InvitationCreate,
  type InvitationCreated,
  InvitationCreatedSchema,
  InvitationPreviewSchema,
  InvitationSchema,
  type Organization,
  OrganizationSchema,
} from '@argus/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { INVITATIONS_KEY } from './keys';

const InvitationListSchema = InvitationSchema.array();

/** GET /api/organization/invitations: open, accepted, revoked and expired (admins). */
export function useInvitations(enabled: boolean) {
  return useQuery({
    queryKey: INVITATIONS_KEY,
    queryFn: ({ signal }) => apiRequest('/api/organization/invitations', { signal }, InvitationListSchema),
    enabled,
  });
}

/** POST /api/organization/invitations: the answer holds the one-time link (admins). */
export function useCreateInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitation: InvitationCreate) =>
      apiRequest<InvitationCreated>(
        '/api/organization/invitations',
        { method: 'POST', body: invitation },
        InvitationCreatedSchema,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: INVITATIONS_KEY }),
  });
}

/** DELETE /api/organization/invitations/:id: an open invitation's link stops working (admins). */
export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(
        `/api/organization/invitations/${encodeURIComponent(id)}`,
        { method: 'DELETE' },
        InvitationSchema,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: INVITATIONS_KEY }),
  });
}

const invitationPath = (token: string) => `/api/invitations/${encodeURIComponent(token)}`;

/** GET /api/invitations/:token: what a link offers, to anyone holding it (no sign-in). */
export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: ['invitation', token],
    queryFn: ({ signal }) =>
      apiRequest(invitationPath(token), { signal, auth: false }, InvitationPreviewSchema),
  });
}

/** POST /api/invitations/:token/accept: joins its organization, once (signed in). */
export function useAcceptInvitation(token: string) {
  return useMutation({
    mutationFn: () =>
      apiRequest<Organization>(`${invitationPath(token)}/accept`, { method: 'POST' }, OrganizationSchema),
  });
}
