import { AlertTriangle, Building2, ScrollText } from 'lucide-react';
import { Link } from 'react-router';
import { Banner } from '../../components/banner';
import { Spinner } from '../../components/spinner';
import { errorText } from '../../lib/api-error';
import { useCan } from '../../lib/organization';
import { useCurrentOrganization } from './api/organization';
import { DangerPanel } from './components/danger-panel';
import { GeneralPanel } from './components/general-panel';
import { InvitationsPanel } from './components/invitations-panel';
import { MembersPanel } from './components/members-panel';
import { SsoPanel } from './components/sso-panel';
import { TokensPanel } from './components/tokens-panel';

/**
 * The Organization screen (/organization, docs/ORGANIZATIONS.md): the current organization's name,
 * members, invitations, tokens, single sign-on and domain, and leaving or deleting it. Each control is
 * shown only to the roles the permission table lets through; a refusal still shows the server's words.
 */
export function OrganizationScreen({ userId }: { userId: string }) {
  const org = useCurrentOrganization();
  const canAudit = useCan('GET /api/audit');

  return (
    <div className="mx-auto max-w-6xl space-y-6" data-testid="organization-screen">
      <header className="flex flex-wrap items-start gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-indigo-600 text-white shadow-sm shadow-indigo-600/20">
          <Building2 className="size-5" aria-hidden />
        </span>
        <div className="min-w-0 flex-1 basis-64">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Organization</h1>
          <p className="mt-1 text-sm text-slate-600">
            {org.data ? (
              <>
                <span className="font-medium text-slate-900">{org.data.name}</span>: its members, invitations,
                tokens and sign-in rules.
              </>
            ) : (
              'Members, invitations, tokens and sign-in rules.'
            )}
          </p>
        </div>
        {canAudit && (
          <Link
            to="/audit"
            className="inline-flex shrink-0 items-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold text-indigo-700 ring-1 ring-indigo-200 ring-inset hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <ScrollText className="size-4" aria-hidden />
            Audit log
          </Link>
        )}
      </header>
      {org.isError && (
        <Banner tone="error" icon={AlertTriangle} testId="organization-error">
          {errorText(org.error, 'The organization could not be loaded')}
        </Banner>
      )}
      {org.isPending ? (
        <div className="flex justify-center rounded-2xl border border-slate-200 bg-white py-16 text-indigo-600">
          <Spinner className="size-7" label="Loading the organization" />
        </div>
      ) : (
        org.data && (
          <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
            <div className="min-w-0 space-y-6">
              <MembersPanel userId={userId} />
              {/* A personal organization has no invitations: it is its owner's alone. */}
              {!org.data.personal && <InvitationsPanel />}
              <TokensPanel />
            </div>
            <div className="min-w-0 space-y-6">
              <GeneralPanel key={org.data.name} org={org.data} />
              {!org.data.personal && <SsoPanel org={org.data} />}
              <DangerPanel org={org.data} userId={userId} />
            </div>
          </div>
        )
      )}
    </div>
  );
}
