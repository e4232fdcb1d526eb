import type { ApiTokenCreated, Role, TokenScope } from '@argus/protocol';
import { KeyRound, Loader2 } from 'lucide-react';
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
import { useCan } from '../../../lib/organization';
import { useCreateServiceToken, useOrganizationTokens, useRevokeOrganizationToken } from '../api/tokens';
import { shortDate, tokenState } from '../model/dates';
import { assignableRoles, ROLE_HINTS, roleOptions } from '../model/roles';
import { CopyValue } from './copy-value';

const SCOPE_OPTIONS: { value: TokenScope; label: string }[] = [
  { value: 'run', label: 'Run suites' },
  { value: 'read', label: 'Read results' },
  { value: 'full', label: 'Full access' },
];
const SCOPE_NAMES: Record<TokenScope, string> = {
  run: 'Run suites',
  read: 'Read results',
  full: 'Full access',
};
const EXPIRY_OPTIONS = [
  { value: '90', label: '90 days' },
  { value: '30', label: '30 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never' },
];
/** A service token never owns the organization (the server refuses it). */
type ServiceRole = Exclude<Role, 'owner'>;
const SERVICE_ROLES = assignableRoles(null, { allowOwner: false });

/** A service token: a name, a role of its own, a scope and an expiry; its value is shown once. */
function ServiceTokenForm({ onCreated }: { onCreated: (token: ApiTokenCreated) => void }) {
  const create = useCreateServiceToken();
  const [name, setName] = useState('');
  const [role, setRole] = useState<ServiceRole>('runner');
  const [scope, setScope] = useState<TokenScope>('run');
  const [expiry, setExpiry] = useState('90');
  const [error, setError] = useState<string | undefined>();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!name.trim()) {
      setError('Name the token');
      return;
    }
    create.mutate(
      {
        name: name.trim(),
        role,
        scope,
        expires_in_days: expiry === 'never' ? null : Number(expiry),
      },
      {
        onSuccess: (token) => {
          onCreated(token);
          setName('');
          toast.success('Service token created');
        },
        onError: (failure) => setError(errorText(failure, 'The service token could not be created')),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-3" aria-label="New service token">
      <TextField
        label="Service token name"
        className="sm:col-span-3"
        placeholder="Nightly CI"
        value={name}
        maxLength={100}
        error={error}
        onChange={(e) => {
          setName(e.target.value);
          setError(undefined);
        }}
      />
      <SelectField
        label="Role"
        value={role}
        options={roleOptions(SERVICE_ROLES)}
        hint={ROLE_HINTS[role]}
        onChange={(e) => setRole(e.target.value as ServiceRole)}
      />
      <SelectField
        label="Scope"
        value={scope}
        options={SCOPE_OPTIONS}
        onChange={(e) => setScope(e.target.value as TokenScope)}
      />
      <SelectField
        label="Expires after"
        value={expiry}
        options={EXPIRY_OPTIONS}
        onChange={(e) => setExpiry(e.target.value)}
      />
      <div className="flex justify-end sm:col-span-3">
        <Button type="submit" disabled={create.isPending}>
          {create.isPending && <Loader2 className="size-4 animate-spin" aria-hidden />}
          Create service token
        </Button>
      </div>
    </form>
  );
}

/** Every API token of the organization (admins): members' and service tokens, revocable; service tokens made here. */
export function TokensPanel() {
  const canList = useCan('GET /api/organization/tokens');
  const canCreate = useCan('POST /api/organization/service-tokens');
  const canRevoke = useCan('DELETE /api/organization/tokens/:id');
  const tokens = useOrganizationTokens(canList);
  const revoke = useRevokeOrganizationToken();
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);

  const onRevoke = (id: string, name: string) =>
    revoke.mutate(id, {
      onSuccess: () => toast.success(`Token “${name}” revoked`),
      onError: (failure) => toast.error(errorText(failure, 'The token could not be revoked')),
    });

  if (!canList) return null;
  return (
    <Panel
      title="API tokens"
      icon={KeyRound}
      subtitle="Members' tokens and service tokens"
      testId="org-tokens-panel"
    >
      <div className="space-y-5">
        {created && (
          <CopyValue
            testId="service-token"
            label="Token"
            message={`Service token “${created.name}” created. Copy it now: it will not be shown again.`}
            value={created.token}
            note="Give it to your CI as the ARGUS_TOKEN secret: it acts with its own role, whoever leaves."
            onDone={() => setCreated(null)}
          />
        )}
        {canCreate && <ServiceTokenForm onCreated={setCreated} />}
        {tokens.isPending ? (
          <div className="flex justify-center py-6 text-indigo-600">
            <Spinner className="size-5" label="Loading tokens" />
          </div>
        ) : tokens.isError ? (
          <p className="text-sm text-red-600">{errorText(tokens.error, 'The tokens could not be loaded')}</p>
        ) : tokens.data.length === 0 ? (
          <p className="text-sm text-slate-500">No API tokens in this organization yet.</p>
        ) : (
          <ul
            className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200"
            aria-label="Organization tokens"
          >
            {tokens.data.map((token) => {
              const state = tokenState(token);
              return (
                <li
                  key={token.id}
                  className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3"
                  data-testid="org-token"
                >
                  <div className="min-w-0 flex-1 basis-48">
                    <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                      <span className="truncate">{token.name}</span>
                      <Badge tone={token.service ? 'orange' : 'slate'}>
                        {token.service ? 'Service' : token.member}
                      </Badge>
                      <Badge tone="indigo">{SCOPE_NAMES[token.scope]}</Badge>
                      {state !== 'active' && (
                        <Badge tone={state === 'revoked' ? 'red' : 'amber'}>
                          {state === 'revoked' ? 'Revoked' : 'Expired'}
                        </Badge>
                      )}
                    </p>
                    <p className="mt-0.5 text-xs text-slate-500">
                      <code className="font-mono">{token.hint}</code> · created {shortDate(token.created_at)}{' '}
                      · last used {shortDate(token.last_used_at, 'never')}
                    </p>
                  </div>
                  {canRevoke && state === 'active' && (
                    <SmallButton
                      variant="secondary"
                      disabled={revoke.isPending}
                      onClick={() => onRevoke(token.id, token.name)}
                      aria-label={`Revoke ${token.name}`}
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
