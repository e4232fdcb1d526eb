import type { InvitationPreview } from '@argus/protocol';

type InvitationState = InvitationPreview['state'];

import { AlertTriangle, Building2, Loader2, LogIn, UserPlus } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { Banner } from '../../components/banner';
import { Button } from '../../components/button';
import { Logo } from '../../components/logo';
import { Spinner } from '../../components/spinner';
import { errorText } from '../../lib/api-error';
import { useOrganization } from '../../lib/organization';
import { useAcceptInvitation, useInvitationPreview } from './api/invitations';
import { shortDate } from './model/dates';
import { ROLE_HINTS, ROLE_NAMES } from './model/roles';

/** Why a link that is no longer open cannot be used (the server refuses it in the same words). */
const CLOSED_TEXT: Record<Exclude<InvitationState, 'open'>, string> = {
  accepted: 'This invitation has already been used: each link joins one person, once',
  revoked: 'This invitation was revoked: ask an admin of the organization for a new one',
  expired: 'This invitation has expired: ask an admin of the organization for a new one',
};

const linkClass =
  'inline-flex flex-1 items-center justify-center gap-2 whitespace-nowrap rounded-lg px-4 py-2.5 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

function Facts({ preview }: { preview: InvitationPreview }) {
  return (
    <dl className="mt-6 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 rounded-xl bg-slate-50 px-4 py-3 text-sm ring-1 ring-slate-200">
      <dt className="text-slate-500">Role</dt>
      <dd className="text-slate-900">
        <span className="font-medium">{ROLE_NAMES[preview.role]}</span>
        <span className="block text-xs text-slate-500">{ROLE_HINTS[preview.role]}</span>
      </dd>
      <dt className="text-slate-500">Invited</dt>
      <dd className="truncate text-slate-900">{preview.email}</dd>
      <dt className="text-slate-500">{preview.state === 'expired' ? 'Expired' : 'Expires'}</dt>
      <dd className="text-slate-900">{shortDate(preview.expires_at)}</dd>
    </dl>
  );
}

/** Signed in: 'Join <org>', then the screens act in it. Signed out: sign in or register, and come back. */
function Actions({
  token,
  preview,
  signedIn,
}: {
  token: string;
  preview: InvitationPreview;
  signedIn: boolean;
}) {
  const accept = useAcceptInvitation(token);
  const { switchTo, refresh } = useOrganization();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const back = { from: `/invitations/${token}` };

  if (preview.state !== 'open') {
    return (
      <div className="mt-6">
        <Banner tone="warning" icon={AlertTriangle} testId="invitation-closed">
          {CLOSED_TEXT[preview.state]}
        </Banner>
      </div>
    );
  }
  if (!signedIn) {
    return (
      <div className="mt-6 space-y-3">
        <p className="text-sm text-slate-600">
          Sign in or create an account to accept it; you will come back here.
        </p>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Link
            to="/login"
            state={back}
            className={`${linkClass} bg-indigo-600 text-white shadow-sm hover:bg-indigo-500`}
          >
            <LogIn className="size-4" aria-hidden />
            Sign in
          </Link>
          <Link
            to="/register"
            state={back}
            className={`${linkClass} bg-white text-slate-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-50`}
          >
            <UserPlus className="size-4" aria-hidden />
            Create an account
          </Link>
        </div>
      </div>
    );
  }
  const onJoin = () => {
    setFailure(null);
    accept.mutate(undefined, {
      onSuccess: async (org) => {
        await refresh();
        switchTo(org.id);
        toast.success(`You joined ${org.name} as ${ROLE_NAMES[org.role].toLowerCase()}`);
        navigate('/organization', { replace: true });
      },
      // Used, revoked or expired since the page loaded: the server's own words.
      onError: (error) => setFailure(errorText(error, 'The invitation could not be accepted')),
    });
  };
  return (
    <div className="mt-6 space-y-3">
      {failure && (
        <Banner tone="error" icon={AlertTriangle} testId="invitation-error">
          {failure}
        </Banner>
      )}
      <Button className="w-full py-3" onClick={onJoin} disabled={accept.isPending}>
        {accept.isPending && <Loader2 className="size-4 animate-spin" aria-hidden />}
        Join {preview.organization}
      </Button>
    </div>
  );
}

/**
 * An invitation link (/invitations/:token): the organization, role, email and state it offers, to
 * anyone holding it. A link that is not valid, or no longer open, says why.
 */
export function InvitationPage({ token, signedIn }: { token: string; signedIn: boolean }) {
  const preview = useInvitationPreview(token);
  return (
    <div className="flex min-h-screen flex-col items-center bg-slate-50 px-4 py-10 sm:py-16">
      <Logo />
      <main
        className="mt-8 w-full max-w-lg rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
        data-testid="invitation-page"
      >
        {preview.isPending ? (
          <div className="flex justify-center py-10 text-indigo-600">
            <Spinner className="size-7" label="Loading the invitation" />
          </div>
        ) : preview.isError ? (
          <>
            <h1 className="text-xl font-semibold tracking-tight text-slate-900">Invitation</h1>
            <div className="mt-4">
              <Banner tone="error" icon={AlertTriangle} testId="invitation-error">
                {errorText(preview.error, 'This invitation could not be loaded')}
              </Banner>
            </div>
          </>
        ) : (
          <>
            <span className="flex size-11 items-center justify-center rounded-xl bg-indigo-600 text-white shadow-sm shadow-indigo-600/20">
              <Building2 className="size-5" aria-hidden />
            </span>
            <h1 className="mt-4 text-xl font-semibold tracking-tight text-slate-900">
              Join {preview.data.organization}
            </h1>
            <p className="mt-1 text-sm text-slate-600">
              You were invited to {preview.data.organization} on Argus, to share its projects, runs and
              history.
            </p>
            <Facts preview={preview.data} />
            <Actions token={token} preview={preview.data} signedIn={signedIn} />
          </>
        )}
      </main>
    </div>
  );
}
