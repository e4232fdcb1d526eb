import { type Organization, SsoRoleSchema } from '@argus/protocol';
import { Loader2, ShieldCheck } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/button';
import { Panel } from '../../../components/panel';
import { SelectField } from '../../../components/select-field';
import { TextField } from '../../../components/text-field';
import { errorText } from '../../../lib/api-error';
import { useCan } from '../../../lib/organization';
import { useUpdateOrganization } from '../api/organization';
import { ROLE_HINTS, ROLE_NAMES, roleOptions } from '../model/roles';

type SsoRole = Organization['sso_role'];
const SSO_ROLES = roleOptions(SsoRoleSchema.options);

/** What a member who may not change the rules reads of them. */
function SsoSummary({ org }: { org: Organization }) {
  if (!org.sso_domain) return <p className="text-sm text-slate-600">No email domain is claimed.</p>;
  return (
    <p className="text-sm text-slate-600">
      People signing in with single sign-on from <strong className="text-slate-900">{org.sso_domain}</strong>{' '}
      join as {ROLE_NAMES[org.sso_role].toLowerCase()}.{' '}
      {org.sso_required
        ? 'Members must sign in with single sign-on.'
        : 'Members may also sign in with a password.'}
    </p>
  );
}

/** The claimed email domain, the role SSO sign-ins join with, and whether members must use SSO (owners). */
export function SsoPanel({ org }: { org: Organization }) {
  const canEdit = useCan('PUT /api/organization');
  const update = useUpdateOrganization();
  const requiredId = useId();
  const [domain, setDomain] = useState(org.sso_domain ?? '');
  const [role, setRole] = useState<SsoRole>(org.sso_role);
  const [required, setRequired] = useState(org.sso_required);
  const [error, setError] = useState<string | undefined>();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    update.mutate(
      { sso_domain: domain.trim() || null, sso_role: role, sso_required: required },
      {
        onSuccess: () => toast.success('Single sign-on settings saved'),
        // The server's words: a malformed domain, one another organization claimed.
        onError: (failure) => setError(errorText(failure, 'The settings could not be saved')),
      },
    );
  };

  return (
    <Panel
      title="Single sign-on and domain"
      icon={ShieldCheck}
      subtitle="Who joins through your identity provider"
      testId="sso-panel"
    >
      {canEdit ? (
        <form
          onSubmit={onSubmit}
          noValidate
          className="grid gap-4 sm:grid-cols-2"
          aria-label="Single sign-on settings"
        >
          <TextField
            label="Claimed email domain"
            placeholder="example.com"
            value={domain}
            maxLength={253}
            error={error}
            onChange={(e) => {
              setDomain(e.target.value);
              setError(undefined);
            }}
          />
          <SelectField
            label="Role on joining"
            value={role}
            options={SSO_ROLES}
            hint={ROLE_HINTS[role]}
            onChange={(e) => setRole(e.target.value as SsoRole)}
          />
          <div className="flex items-start gap-3 sm:col-span-2">
            <input
              id={requiredId}
              type="checkbox"
              checked={required}
              onChange={(e) => setRequired(e.target.checked)}
              className="mt-0.5 size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-500"
            />
            <label htmlFor={requiredId} className="text-sm text-slate-700">
              <span className="font-medium text-slate-900">Require single sign-on</span>
              <span className="block text-xs text-slate-500">
                Members are refused a password sign-in, with a message saying why.
              </span>
            </label>
          </div>
          <div className="flex justify-end sm:col-span-2">
            <Button type="submit" variant="secondary" disabled={update.isPending}>
              {update.isPending && <Loader2 className="size-4 animate-spin" aria-hidden />}
              Save sign-on settings
            </Button>
          </div>
        </form>
      ) : (
        <SsoSummary org={org} />
      )}
    </Panel>
  );
}
