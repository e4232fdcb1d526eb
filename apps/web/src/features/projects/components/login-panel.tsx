import type { Project } from '@argus/protocol';
import { AlertTriangle, Loader2, LogIn } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/button';
import { Panel } from '../../../components/panel';
import { SegmentedControl } from '../../../components/segmented-control';
import { SelectField } from '../../../components/select-field';
import { TextAreaField } from '../../../components/text-area-field';
import { TextField } from '../../../components/text-field';
import { errorText } from '../../../lib/api-error';
import { useCan } from '../../../lib/organization';
import { useVariables } from '../api/list-variables';
import { useUpdateProject } from '../api/update-project';
import { accountsMode } from '../model/login-accounts';
import {
  checkLogin,
  type LoginErrors,
  type LoginMode,
  type LoginValues,
  loginSummary,
  loginValuesFrom,
  undefinedReferences,
} from '../model/login-form';
import { variableNames } from '../model/variables';

const MODE_OPTIONS: ReadonlyArray<{ value: LoginMode; label: string; hint: string }> = [
  { value: 'none', label: 'None', hint: 'Argus starts signed out' },
  { value: 'credentials', label: 'Credentials', hint: 'Argus finds the sign-in form and fills it' },
  { value: 'steps', label: 'Steps', hint: 'Argus replays recorded steps' },
];

const STEPS_PLACEHOLDER = [
  'Navigate to /login',
  'Fill "Email" with "{{USERNAME}}"',
  'Fill "Password" with "{{PASSWORD}}"',
  'Click "Sign in"',
  'Verify URL contains "/dashboard"',
].join('\n');

/** A select's options: a prompt, the names, and the current choice even when it is no longer defined. */
function nameOptions(names: readonly string[], current: string, prompt: string) {
  const options = [{ value: '', label: prompt }, ...names.map((name) => ({ value: name, label: name }))];
  if (current && !names.includes(current))
    options.push({ value: current, label: `${current} (not defined)` });
  return options;
}

/**
 * How Argus signs in before it explores or runs: not at all, with credentials (the sign-in page and
 * the variable and secrets holding the username, password and two-factor key), or recorded steps.
 * Saved with the project.
 */
export function LoginPanel({ project }: { project: Project }) {
  const [values, setValues] = useState<LoginValues>(() => loginValuesFrom(project.login));
  const [errors, setErrors] = useState<LoginErrors>({});
  const variables = useVariables(project.id);
  const save = useUpdateProject(project.id);
  const names = variableNames(variables.data ?? []);
  const missing = variables.data ? undefinedReferences(values, names.all) : [];

  const set = (change: Partial<LoginValues>) => {
    setValues((current) => ({ ...current, ...change }));
    setErrors({});
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkLogin(values);
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    save.mutate(
      { login: checked.login },
      {
        onSuccess: (saved) => {
          setValues(loginValuesFrom(saved.login));
          toast.success('Login saved');
        },
        onError: (error) => toast.error(errorText(error, 'The login could not be saved')),
      },
    );
  };

  // A role that may not change the login reads it: the form's fields are disabled and not saved.
  const canEdit = useCan('PUT /api/projects/:id');
  const noNames = variables.data !== undefined && names.all.length === 0;
  // As saved: how the project's runs sign in, lane by lane (docs/PROJECTS.md#an-account-per-lane).
  const accounts = variables.data ? accountsMode(project.login, names.all) : null;

  return (
    <Panel title="Login" icon={LogIn} subtitle={loginSummary(project.login)} testId="login-panel">
      <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Login">
        <fieldset disabled={!canEdit} className="min-w-0 space-y-4">
          <SegmentedControl
            legend="How Argus signs in"
            name="login-mode"
            columns={3}
            value={values.mode}
            onChange={(mode) => set({ mode })}
            options={MODE_OPTIONS}
          >
            <p className="mt-1.5 text-xs text-slate-500">
              {values.mode === 'none'
                ? 'Tests start on the site signed out.'
                : values.mode === 'credentials'
                  ? 'Argus opens the sign-in page, finds the form as a person would and fills it in.'
                  : 'Argus replays these steps to sign in at the start of each run. One step per line; {{NAME}} inserts a variable or secret.'}
            </p>
          </SegmentedControl>

          {values.mode === 'credentials' && (
            <div className="space-y-4">
              <TextField
                label="Sign-in page"
                autoComplete="off"
                spellCheck={false}
                value={values.loginUrl}
                onChange={(event) => set({ loginUrl: event.target.value })}
                error={errors.loginUrl}
                placeholder="/login"
              >
                <p className="mt-1.5 text-xs text-slate-500">
                  A path on the environment's base URL, or a full address.
                </p>
              </TextField>
              {noNames && (
                <p className="rounded-lg bg-slate-50 px-3 py-2 text-xs text-slate-600 ring-1 ring-slate-200 ring-inset">
                  Add a variable for the username and a secret for the password under Variables and secrets,
                  then choose them here.
                </p>
              )}
              <div className="grid gap-4 sm:grid-cols-2">
                <SelectField
                  label="Username variable"
                  value={values.usernameVariable}
                  onChange={(event) => set({ usernameVariable: event.target.value })}
                  error={errors.usernameVariable}
                  options={nameOptions(names.all, values.usernameVariable, 'Choose a variable')}
                />
                <SelectField
                  label="Password secret"
                  value={values.passwordSecret}
                  onChange={(event) => set({ passwordSecret: event.target.value })}
                  error={errors.passwordSecret}
                  options={nameOptions(names.secrets, values.passwordSecret, 'Choose a secret')}
                />
              </div>
              <SelectField
                label="Two-factor (TOTP) secret (optional)"
                value={values.totpSecret}
                onChange={(event) => set({ totpSecret: event.target.value })}
                error={errors.totpSecret}
                options={nameOptions(names.secrets, values.totpSecret, 'None')}
                hint="The key a site shows when you set up an authenticator app (base32, or an otpauth:// link), stored as a secret."
              />
            </div>
          )}

          {values.mode === 'steps' && (
            <TextAreaField
              label="Sign-in steps"
              rows={6}
              spellCheck={false}
              inputClassName="font-mono text-xs leading-relaxed"
              value={values.steps}
              onChange={(event) => set({ steps: event.target.value })}
              error={errors.steps}
              placeholder={STEPS_PLACEHOLDER}
            />
          )}

          {accounts && values.mode === 'credentials' && (
            <p
              className="rounded-lg bg-slate-50 px-3 py-2 text-xs text-slate-600 ring-1 ring-slate-200 ring-inset"
              data-testid="login-accounts"
            >
              {accounts.text}
            </p>
          )}

          {missing.length > 0 && (
            <p className="flex items-start gap-2 text-xs text-amber-800" data-testid="login-undefined">
              <AlertTriangle className="mt-px size-3.5 shrink-0" aria-hidden />
              Not defined in this project yet: {missing.join(', ')}.
            </p>
          )}
        </fieldset>
        {canEdit && (
          <div className="flex justify-end border-t border-slate-100 pt-4">
            <Button type="submit" variant="secondary" disabled={save.isPending}>
              {save.isPending && <Loader2 className="size-4 animate-spin" aria-hidden />}
              Save login
            </Button>
          </div>
        )}
      </form>
    </Panel>
  );
}
