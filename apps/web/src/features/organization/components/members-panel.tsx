import type { Member, Role } from '@argus/protocol';
import { Users } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Badge } from '../../../components/badge';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Panel } from '../../../components/panel';
import { SmallButton } from '../../../components/small-button';
import { Spinner } from '../../../components/spinner';
import { errorText } from '../../../lib/api-error';
import { useCan, useOrganization } from '../../../lib/organization';
import { useMembers, useRemoveMember, useSetMemberRole } from '../api/members';
import { shortDate } from '../model/dates';
import { assignableRoles, mayChangeMember, ROLE_NAMES } from '../model/roles';

function memberName(member: Member): string {
  return member.full_name?.trim() || member.username;
}

/** A member's role: a select for those who may change it, else a badge. */
function RoleCell({
  member,
  editable,
  choices,
  pending,
  onChange,
}: {
  member: Member;
  editable: boolean;
  choices: Role[];
  pending: boolean;
  onChange: (role: Role) => void;
}) {
  if (!editable)
    return <Badge tone={member.role === 'owner' ? 'indigo' : 'slate'}>{ROLE_NAMES[member.role]}</Badge>;
  return (
    <select
      aria-label={`Role of ${memberName(member)}`}
      value={member.role}
      disabled={pending}
      onChange={(e) => onChange(e.target.value as Role)}
      className="rounded-lg border border-slate-300 bg-white py-1.5 pr-8 pl-2.5 text-sm text-slate-900 shadow-xs focus:border-indigo-500 focus:ring-4 focus:ring-indigo-100 focus:outline-none disabled:text-slate-400"
      data-testid="member-role"
    >
      {choices.map((role) => (
        <option key={role} value={role}>
          {ROLE_NAMES[role]}
        </option>
      ))}
    </select>
  );
}

/**
 * The members and service accounts with their roles. Admins change roles (owners alone make or
 * change owners) and remove members; everyone else reads the list.
 */
export function MembersPanel({ userId }: { userId: string }) {
  const { role } = useOrganization();
  const members = useMembers();
  const setRole = useSetMemberRole();
  const remove = useRemoveMember();
  const canSetRole = useCan('PUT /api/organization/members/:userId');
  const canRemove = useCan('DELETE /api/organization/members/:userId');
  const [removing, setRemoving] = useState<Member | null>(null);

  const onRole = (member: Member, next: Role) =>
    setRole.mutate(
      { userId: member.user_id, role: next },
      {
        onSuccess: (changed) =>
          toast.success(`${memberName(member)} is now ${ROLE_NAMES[changed.role].toLowerCase()}`),
        onError: (failure) => toast.error(errorText(failure, 'The role could not be changed')),
      },
    );

  const onRemove = () => {
    const member = removing;
    if (!member) return;
    remove.mutate(member.user_id, {
      onSuccess: () => toast.success(`${memberName(member)} was removed`),
      onError: (failure) => toast.error(errorText(failure, 'The member could not be removed')),
      onSettled: () => setRemoving(null),
    });
  };

  return (
    <Panel
      title="Members"
      icon={Users}
      subtitle="People and service accounts, with their roles"
      testId="members-panel"
    >
      {members.isPending ? (
        <div className="flex justify-center py-6 text-indigo-600">
          <Spinner className="size-5" label="Loading members" />
        </div>
      ) : members.isError ? (
        <p className="text-sm text-red-600">{errorText(members.error, 'The members could not be loaded')}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200" aria-label="Members">
          {members.data.map((member) => {
            const self = member.user_id === userId;
            const changeable = mayChangeMember(role, member.role);
            return (
              <li
                key={member.user_id}
                className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3"
                data-testid="member"
                data-username={member.username}
              >
                <div className="min-w-0 flex-1 basis-48">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                    <span className="truncate">{memberName(member)}</span>
                    {self && <Badge tone="green">You</Badge>}
                    {member.service && <Badge tone="orange">Service account</Badge>}
                  </p>
                  {/* The address may be cut short on a phone; the date wraps under it rather than vanish. */}
                  <p className="mt-0.5 flex flex-wrap gap-x-1 text-xs text-slate-500">
                    <span className="min-w-0 truncate">
                      {member.service ? 'Acts for its tokens' : member.email}
                    </span>
                    <span className="whitespace-nowrap">· joined {shortDate(member.joined_at)}</span>
                  </p>
                </div>
                <RoleCell
                  member={member}
                  editable={canSetRole && changeable}
                  choices={assignableRoles(role)}
                  pending={setRole.isPending}
                  onChange={(next) => onRole(member, next)}
                />
                {canRemove && changeable && !self && (
                  <SmallButton
                    variant="secondary"
                    onClick={() => setRemoving(member)}
                    aria-label={`Remove ${memberName(member)}`}
                  >
                    Remove
                  </SmallButton>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing ? memberName(removing) : ''}?`}
        description="They lose access at once: their sockets close and their API tokens for this organization stop working. Runs they started stay in the history."
        confirmLabel="Remove member"
        pending={remove.isPending}
        onConfirm={onRemove}
        onClose={() => setRemoving(null)}
      />
    </Panel>
  );
}
