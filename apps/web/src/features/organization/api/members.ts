import { type Member, MemberSchema, type Role } from '@argus/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { MEMBERS_KEY, ORG_TOKENS_KEY } from './keys';

const MemberListSchema = MemberSchema.array();

/** GET /api/organization/members: people and service accounts, with their roles. */
export function useMembers() {
  return useQuery({
    queryKey: MEMBERS_KEY,
    queryFn: ({ signal }) => apiRequest('/api/organization/members', { signal }, MemberListSchema),
  });
}

const memberPath = (userId: string) => `/api/organization/members/${encodeURIComponent(userId)}`;

/** PUT /api/organization/members/:userId (admins; owners alone make or change owners). */
export function useSetMemberRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      apiRequest<Member>(memberPath(userId), { method: 'PUT', body: { role } }, MemberSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: MEMBERS_KEY }),
  });
}

/** DELETE /api/organization/members/:userId: their tokens here stop working at once (admins). */
export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => apiRequest<void>(memberPath(userId), { method: 'DELETE' }),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: MEMBERS_KEY });
      await queryClient.invalidateQueries({ queryKey: ORG_TOKENS_KEY });
    },
  });
}
