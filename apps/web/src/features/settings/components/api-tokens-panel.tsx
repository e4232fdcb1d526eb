import type { ApiTokenCreated, TokenScope } from '@argus/protocol';
import { Check, Copy, KeyRound, Loader2 } from 'lucide-react';
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
import { useCreateToken } from '../api/create-token';
import { useTokens } from '../api/list-tokens';
import { useRevokeToken } from '../api/revoke-token';
import { EXPIRY_OPTIONS, SCOPE_NAMES, SCOPE_OPTIONS, shortDate, tokenState } from '../model/tokens';

/** The value of a token just made: shown once, with a copy button, until the user dismisses it. */
function NewToken({ created, onDone }: { created: ApiTokenCreated; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.token);
      setCopied(true);
    } catch {
      toast.error('Copying failed: select the token and copy it');
    }
  };
  return (
    <div className="rounded-xl border border-emerald-200 bg-emerald-50 p-4" data-testid="new-token">
      <p className="text-sm font-medium text-emerald-900">
        Token “{created.name}” created. Copy it now: it will not be shown again.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code
          className="min-w-0 flex-1 basis-64 break-all rounded-lg bg-white px-3 py-2 font-mono text-xs text-slate-900 ring-1 ring-emerald-200"
          data-testid="new-token-value"
        >
          {created.token}
        </code>
        <SmallButton icon={copied ? Check : Copy} onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </SmallButton>
        <SmallButton variant="ghost" onClick={onDone}>
          Done
        </SmallButton>
      </div>
      <p className="mt-2 text-xs text-emerald-800">
        Give it to your CI as the <code className="font-mono">ARGUS_TOKEN</code> secret (docs/CI.md).
      </p>
    </div>
  );
}

/**
 * Personal API tokens for CI jobs and the `argus` command line: make one (name, scope, expiry), see
 * its value once, list them with when each was last used, revoke one. Tokens go in the
 * `Authorization: Bearer` header, never in a URL.
 */
export function ApiTokensPanel() {
  const tokens = useTokens();
  const create = useCreateToken();
  const revoke = useRevokeToken();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<TokenScope>('run');
  const [expiry, setExpiry] = useState('90');
  const [error, setError] = useState<string | undefined>();
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);

  const onCreate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!name.trim()) {
      setError('Name the token');
      return;
    }
    create.mutate(
      { name: name.trim(), scope, expires_in_days: expiry === 'never' ? null : Number(expiry) },
      {
        onSuccess: (token) => {
          setCreated(token);
          setName('');
          toast.success('API token created');
        },
        onError: (failure) => toast.error(errorText(failure, 'The API token could not be created')),
      },
    );
  };

  const onRevoke = (id: string, tokenName: string) =>
    revoke.mutate(id, {
      onSuccess: () => toast.success(`Token “${tokenName}” revoked`),
      onError: (failure) => toast.error(errorText(failure, 'The API token could not be revoked')),
    });

  return (
    <Panel
      title="API tokens"
      icon={KeyRound}
      subtitle="For CI jobs and the argus command line"
      testId="api-tokens-panel"
    >
      <div className="space-y-5">
        {created && <NewToken created={created} onDone={() => setCreated(null)} />}
        <form onSubmit={onCreate} noValidate className="grid gap-4 sm:grid-cols-2" aria-label="New API token">
          <TextField
            label="Token name"
            className="sm:col-span-2"
            placeholder="GitHub Actions"
            value={name}
            maxLength={100}
            error={error}
            onChange={(e) => {
              setName(e.target.value);
              setError(undefined);
            }}
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
          <div className="flex justify-end sm:col-span-2">
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <Loader2 className="size-4 animate-spin" aria-hidden />}
              Create token
            </Button>
          </div>
        </form>
        {tokens.isPending ? (
          <div className="flex justify-center py-6 text-indigo-600">
            <Spinner className="size-5" label="Loading API tokens" />
          </div>
        ) : tokens.isError ? (
          <p className="text-sm text-red-600">
            {errorText(tokens.error, 'Your API tokens could not be loaded')}
          </p>
        ) : tokens.data.length === 0 ? (
          <p className="text-sm text-slate-500">No API tokens yet.</p>
        ) : (
          <ul
            className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200"
            aria-label="Your API tokens"
          >
            {tokens.data.map((token) => {
              const state = tokenState(token);
              return (
                <li
                  key={token.id}
                  className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3"
                  data-testid="api-token"
                >
                  <div className="min-w-0 flex-1 basis-48">
                    <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                      <span className="truncate">{token.name}</span>
                      <Badge tone={token.scope === 'full' ? 'orange' : 'indigo'}>
                        {SCOPE_NAMES[token.scope]}
                      </Badge>
                      {state !== 'active' && (
                        <Badge tone={state === 'revoked' ? 'red' : 'amber'}>
                          {state === 'revoked' ? 'Revoked' : 'Expired'}
                        </Badge>
                      )}
                    </p>
                    <p className="mt-1 text-xs text-slate-500">
                      <code className="font-mono">{token.hint}</code> · created{' '}
                      {shortDate(token.created_at, '')} · last used {shortDate(token.last_used_at, 'never')} ·{' '}
                      {token.expires_at ? `expires ${shortDate(token.expires_at, '')}` : 'never expires'}
                    </p>
                  </div>
                  {state === 'active' && (
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
