import type { Invitation, InvitationCreated, Role } from '@argus/protocol';

type InvitationState = Invitation['state'];

import { Loader2, Mail } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Panel } from '../../../components/panel';
import { SelectField } from '../../../components/select-field';
import { SmallButton } from '../../../components/small-button';
import { Spinner } from '../../../components/spinner';
import { TextField } from '../../../components/text-field';
import { errorText } from '../../../lib/api-error';
import { useCan, useOrganization } from '../../../lib/organization';
import { useCreateInvitation, useInvitations, useRevokeInvitation } from '../api/invitations';
import { shortDate } from '../model/dates';
import { invitationLink } from '../model/link';
import { assignableRoles, ROLE_HINTS, ROLE_NAMES, roleOptions } from '../model/roles';
import { CopyValue } from './copy-value';

const STATE_BADGES: Record<InvitationState, { tone: 'green' | 'slate' | 'red' | 'amber'; label: string }> = {
  open: { tone: 'green', label: 'Open' },
  accepted: { tone: 'slate', label: 'Accepted' },
  revoked: { tone: 'red', label: 'Revoked' },
  expired: { tone: 'amber', label: 'Expired' },
};

/** Invite by email and role: the one-time link is shown to copy (and mailed when the server can). */
function InviteForm({ onCreated }: { onCreated: (created: InvitationCreated) => void }) {
  const { role: myRole } = useOrganization();
  const create = useCreateInvitation();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [error, setError] = useState<string | undefined>();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!email.trim()) {
      setError('Enter an email address');
      return;
    }
    create.mutate(
      { email: email.trim(), role },
      {
        onSuccess: (created) => {
          onCreated(created);
          setEmail('');
          toast.success(
            created.emailed ? `Invitation emailed to ${created.email}` : 'Invitation link created',
          );
        },
        // The server's own words: a malformed address, a role this caller may not give.
        onError: (failure) => setError(errorText(failure, 'The invitation could not be created')),
      },
    );
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid gap-4 sm:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]"
      aria-label="Invite a member"
    >
      <TextField
        label="Email"
        type="email"
        placeholder="colleague@company.com"
        value={email}
        maxLength={254}
        error={error}
        onChange={(e) => {
          setEmail(e.target.value);
          setError(undefined);
        }}
      />
      <SelectField
        label="Role"
        value={role}
        options={roleOptions(assignableRoles(myRole))}
        hint={ROLE_HINTS[role]}
        onChange={(e) => setRole(e.target.value as Role)}
      />
      <div className="flex justify-end sm:col-span-2">
        <Button type="submit" disabled={create.isPending}>
          {create.isPending && <Loader2 className="size-4 animate-spin" aria-hidden />}
          Create invitation link
        </Button>
      </div>
    </form>
  );
}

/** Invitations (admins): create one by email and role, copy its link once, see each one's state, revoke open ones. */
export function InvitationsPanel() {
  const canList = useCan('GET /api/organization/invitations');
  const canCreate = useCan('POST /api/organization/invitations');
  const canRevoke = useCan('DELETE /api/organization/invitations/:id');
  const invitations = useInvitations(canList);
  const revoke = useRevokeInvitation();
  const [created, setCreated] = useState<InvitationCreated | null>(null);

  const onRevoke = (id: string, email: string) =>
    revoke.mutate(id, {
      onSuccess: () => toast.success(`The invitation for ${email} was revoked`),
      onError: (failure) => toast.error(errorText(failure, 'The invitation could not be revoked')),
    });

  if (!canList) return null;
  return (
    <Panel
      title="Invitations"
      icon={Mail}
      subtitle="One-time links, valid for 7 days"
      testId="invitations-panel"
    >
      <div className="space-y-5">
        {created && (
          <CopyValue
            testId="invitation-link"
            label="Invitation link"
            message={`Send this link to ${created.email}: it works once, for the ${ROLE_NAMES[created.role].toLowerCase()} role, and will not be shown again.`}
            value={invitationLink(created, window.location.origin)}
            note={created.emailed ? 'It was also emailed to them.' : undefined}
            onDone={() => setCreated(null)}
          />
        )}
        {canCreate && <InviteForm onCreated={setCreated} />}
        {invitations.isPending ? (
          <div className="flex justify-center py-6 text-indigo-600">
            <Spinner className="size-5" label="Loading invitations" />
          </div>
        ) : invitations.isError ? (
          <p className="text-sm text-red-600">
            {errorText(invitations.error, 'The invitations could not be loaded')}
          </p>
        ) : invitations.data.length === 0 ? (
          <p className="text-sm text-slate-500">No invitations yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200" aria-label="Invitations">
            {invitations.data.map((invitation) => {
              const badge = STATE_BADGES[invitation.state];
              return (
                <li
                  key={invitation.id}
                  className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3"
                  data-testid="invitation"
                  data-state={invitation.state}
                >
                  <div className="min-w-0 flex-1 basis-48">
                    <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                      <span className="truncate">{invitation.email}</span>
                      <Badge tone="indigo">{ROLE_NAMES[invitation.role]}</Badge>
                      <Badge tone={badge.tone}>{badge.label}</Badge>
                    </p>
                    <p className="mt-0.5 text-xs text-slate-500">
                      Sent {shortDate(invitation.created_at)} ·{' '}
                      {invitation.state === 'accepted'
                        ? `accepted ${shortDate(invitation.accepted_at)}`
                        : `expires ${shortDate(invitation.expires_at)}`}
                    </p>
                  </div>
                  {canRevoke && invitation.state === 'open' && (
                    <SmallButton
                      variant="secondary"
                      disabled={revoke.isPending}
                      onClick={() => onRevoke(invitation.id, invitation.email)}
                      aria-label={`Revoke the invitation for ${invitation.email}`}
                    >
                      Revoke
                    </SmallButton>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </Panel>
  );
}
