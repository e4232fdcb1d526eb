import {
  AI_ENGINE_CHOICES,
  AI_ENGINE_LABELS,
  type SettingsResponse,
  type TestConnectionResponse,
} from '@argus/protocol';
import { Bot, CheckCircle2, Globe, Loader2, PlugZap, XCircle } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Panel } from '../../../components/panel';
import { SelectField } from '../../../components/select-field';
import { TextField } from '../../../components/text-field';
import { ApiError, errorText } from '../../../lib/api-error';
import { cn } from '../../../lib/cn';
import { useTestConnection } from '../api/test-connection';
import { useUpdateSettings } from '../api/update-settings';
import {
  type AiFormErrors,
  type AiFormValues,
  aiFormFrom,
  aiFormProblems,
  aiUpdateBody,
  BASE_URL_PLACEHOLDERS,
  connectionTestBody,
  isModelProvider,
  MODEL_PLACEHOLDERS,
  WIRE_FIELDS,
} from '../model/settings-form';
import { SecretField } from './secret-field';

/** Field errors from a 422 answer, by the form field each names. */
export function fieldErrorsOf(error: unknown): AiFormErrors {
  const errors: AiFormErrors = {};
  if (!(error instanceof ApiError)) return errors;
  for (const issue of error.issues) {
    const wire = issue.loc[issue.loc.length - 1];
    const field = typeof wire === 'string' ? WIRE_FIELDS[wire] : undefined;
    if (field) errors[field] ??= issue.msg;
  }
  return errors;
}

function serverDefaultLabel(settings: SettingsResponse): string {
  const { provider, model } = settings.server_default;
  return provider === 'builtin' ? 'Built-in (rule-based)' : `${AI_ENGINE_LABELS[provider]} · ${model}`;
}

/** Which engine writes and runs this user's tests now, and whose choice that is. */
function EngineInEffect({ settings }: { settings: SettingsResponse }) {
  const { effective } = settings;
  return (
    <dl className="grid gap-3 rounded-xl bg-slate-50 px-4 py-3 text-sm ring-1 ring-slate-200 ring-inset sm:grid-cols-2">
      <div className="min-w-0">
        <dt className="text-xs font-medium text-slate-500">In effect now</dt>
        <dd className="mt-1 flex flex-wrap items-center gap-2" data-testid="effective-engine">
          <span className="font-semibold break-words text-slate-900">{effective.name}</span>
          <Badge tone={effective.source === 'user' ? 'indigo' : 'slate'}>
            {effective.source === 'user' ? 'Your settings' : 'Server default'}
          </Badge>
        </dd>
      </div>
      <div className="min-w-0">
        <dt className="text-xs font-medium text-slate-500">Server default</dt>
        <dd className="mt-1 font-medium break-words text-slate-700" data-testid="server-default">
          {serverDefaultLabel(settings)}
        </dd>
      </div>
    </dl>
  );
}

function ConnectionResult({ result }: { result: TestConnectionResponse }) {
  const Icon = result.ok ? CheckCircle2 : XCircle;
  return (
    <div
      role="status"
      data-testid="connection-result"
      data-ok={String(result.ok)}
      className={cn(
        'flex items-start gap-2.5 rounded-xl border px-4 py-3 text-sm',
        result.ok
          ? 'border-emerald-200 bg-emerald-50 text-emerald-800'
          : 'border-red-200 bg-red-50 text-red-800',
      )}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span className="min-w-0 break-words">{result.message}</span>
    </div>
  );
}

/**
 * The AI engine: provider, model, base URL and API key (stored encrypted, shown masked), saved as the
 * user's own choice over the server's default; 'Test connection' makes one tiny call with what the
 * form holds and says what came back.
 */
export function AiEnginePanel({ settings }: { settings: SettingsResponse }) {
  const [values, setValues] = useState<AiFormValues>(() => aiFormFrom(settings));
  const [errors, setErrors] = useState<AiFormErrors>({});
  const [result, setResult] = useState<TestConnectionResponse | null>(null);
  const save = useUpdateSettings();
  const removeKey = useUpdateSettings();
  const test = useTestConnection();
  const provider = values.provider;
  const usesModel = isModelProvider(provider);

  const set = (field: keyof AiFormValues) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const check = (): boolean => {
    const problems = aiFormProblems(values);
    setErrors(problems);
    return Object.keys(problems).length === 0;
  };

  const onSave = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!check()) return;
    save.mutate(aiUpdateBody(values), {
      onSuccess: (saved) => {
        setValues(aiFormFrom(saved));
        toast.success('AI engine settings saved');
      },
      onError: (error) => {
        setErrors(fieldErrorsOf(error));
        toast.error(errorText(error, 'Settings could not be saved'));
      },
    });
  };

  const onTest = () => {
    if (!check()) return;
    setResult(null);
    test.mutate(connectionTestBody(values), {
      onSuccess: setResult,
      onError: (error) => {
        setErrors(fieldErrorsOf(error));
        setResult({ ok: false, message: errorText(error, 'The connection test failed'), latency_ms: 0 });
      },
    });
  };

  const onRemoveKey = () =>
    removeKey.mutate(
      { ai_api_key: null },
      {
        onSuccess: () => toast.success('API key removed'),
        onError: (error) => toast.error(errorText(error, 'The API key could not be removed')),
      },
    );

  const options = [
    { value: '', label: `Server default (${serverDefaultLabel(settings)})` },
    ...AI_ENGINE_CHOICES.map((choice) => ({ value: choice, label: AI_ENGINE_LABELS[choice] })),
  ];

  return (
    <Panel
      title="AI engine"
      icon={Bot}
      subtitle="Which engine writes and runs your tests"
      testId="ai-engine-panel"
    >
      <div className="space-y-5">
        <EngineInEffect settings={settings} />
        <form onSubmit={onSave} noValidate className="space-y-4" aria-label="AI engine">
          <SelectField
            label="Provider"
            name="ai_provider"
            value={provider}
            onChange={(event) => set('provider')(event.target.value)}
            options={options}
            hint={
              provider === 'builtin'
                ? 'The built-in engine explores the site and writes tests by rules; it calls no model.'
                : provider === ''
                  ? 'Whatever the server is configured with (AI_PROVIDER, AI_MODEL).'
                  : undefined
            }
          />
          {usesModel && (
            <div className="grid gap-4 md:grid-cols-2">
              <TextField
                label="Model"
                name="ai_model"
                autoComplete="off"
                spellCheck={false}
                placeholder={MODEL_PLACEHOLDERS[provider]}
                value={values.model}
                onChange={(event) => set('model')(event.target.value)}
                error={errors.model}
                required
              />
              <TextField
                label={provider === 'openai-compatible' ? 'Base URL' : 'Base URL (optional)'}
                name="ai_base_url"
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                icon={<Globe className="size-4" />}
                placeholder={BASE_URL_PLACEHOLDERS[provider]}
                value={values.baseUrl}
                onChange={(event) => set('baseUrl')(event.target.value)}
                error={errors.baseUrl}
                required={provider === 'openai-compatible'}
              />
            </div>
          )}
          {usesModel && (
            <SecretField
              label="API key"
              stored={settings.ai_api_key}
              value={values.apiKey}
              onChange={set('apiKey')}
              onRemove={onRemoveKey}
              removing={removeKey.isPending}
              error={errors.apiKey}
              emptyPlaceholder={
                provider === 'anthropic'
                  ? 'sk-ant-…'
                  : provider === 'openai'
                    ? 'sk-…'
                    : 'Optional for local servers'
              }
              hint="None stored. Encrypted on the server; only its last four characters are ever shown."
            />
          )}
          {!usesModel && settings.ai_api_key && (
            <p className="text-xs text-slate-500">
              Your stored API key ({settings.ai_api_key}) is kept for when you choose a provider again.
            </p>
          )}
          <div className="flex flex-wrap items-center justify-end gap-3 border-t border-slate-100 pt-4">
            <Button variant="secondary" onClick={onTest} disabled={test.isPending}>
              {test.isPending ? (
                <Loader2 className="size-4 animate-spin" aria-hidden />
              ) : (
                <PlugZap className="size-4" aria-hidden />
              )}
              {test.isPending ? 'Testing...' : 'Test connection'}
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending && <Loader2 className="size-4 animate-spin" aria-hidden />}
              {save.isPending ? 'Saving...' : 'Save'}
            </Button>
          </div>
        </form>
        {result && <ConnectionResult result={result} />}
      </div>
    </Panel>
  );
}
