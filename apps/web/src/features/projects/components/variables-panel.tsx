import type { Project, Variable } from '@argus/protocol';
import { AlertTriangle, Braces, KeyRound, Lock, Pencil, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { Badge } from '../../../components/badge';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { IconButton } from '../../../components/icon-button';
import { Panel } from '../../../components/panel';
import { SegmentedControl } from '../../../components/segmented-control';
import { SelectField } from '../../../components/select-field';
import { SmallButton } from '../../../components/small-button';
import { Spinner } from '../../../components/spinner';
import { TextField } from '../../../components/text-field';
import { ApiError, errorText } from '../../../lib/api-error';
import { useCan } from '../../../lib/organization';
import { useDeleteVariable } from '../api/delete-variable';
import { useVariables } from '../api/list-variables';
import { useSaveVariable } from '../api/save-variable';
import {
  checkVariable,
  existingVariable,
  SECRET_MASK,
  type VariableErrors,
  type VariableScope,
  type VariableValues,
  variableScopes,
} from '../model/variables';
import { FormActions } from './form-actions';

const TYPE_OPTIONS = [
  { value: 'variable', label: 'Variable' },
  { value: 'secret', label: 'Secret' },
] as const;

/** Field errors of a 422 answer about a variable. */
function variableFieldErrors(error: unknown): VariableErrors {
  const errors: VariableErrors = {};
  if (!(error instanceof ApiError)) return errors;
  for (const issue of error.issues) {
    const field = issue.loc[issue.loc.length - 1];
    if (field === 'name') errors.name ??= issue.msg;
    if (field === 'value') errors.value ??= issue.msg;
  }
  return errors;
}

/**
 * Adds a variable or a secret: name, type, value, scope. A secret's value is typed in a password field
 * and forgotten once saved (the form closes; the server never sends it back).
 */
function AddVariableForm({
  project,
  variables,
  onDone,
}: {
  project: Project;
  variables: readonly Variable[];
  onDone: () => void;
}) {
  const [values, setValues] = useState<VariableValues>({
    name: '',
    value: '',
    secret: false,
    environmentId: '',
  });
  const [errors, setErrors] = useState<VariableErrors>({});
  const save = useSaveVariable(project.id);
  const replaces = existingVariable(variables, values.name, values.environmentId);

  const set = (change: Partial<VariableValues>) => {
    setValues((current) => ({ ...current, ...change }));
    setErrors({});
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkVariable(values);
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    save.mutate(checked.body, {
      onSuccess: (saved) => {
        setValues((current) => ({ ...current, value: '' }));
        toast.success(saved.secret ? `Secret ${saved.name} saved` : `Variable ${saved.name} saved`);
        onDone();
      },
      onError: (error) => {
        setErrors(variableFieldErrors(error));
        toast.error(errorText(error, 'The variable could not be saved'));
      },
    });
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="New variable"
      className="space-y-4 rounded-xl border border-indigo-200 bg-indigo-50/40 p-4"
      data-testid="variable-form"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 className="text-sm font-semibold text-slate-900">New variable or secret</h3>
        <SegmentedControl
          legend="Type"
          name="variable-type"
          size="compact"
          value={values.secret ? 'secret' : 'variable'}
          onChange={(type) => set({ secret: type === 'secret', value: '' })}
          options={TYPE_OPTIONS}
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Name"
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          className="[&_input]:font-mono"
          value={values.name}
          onChange={(event) => set({ name: event.target.value })}
          error={errors.name}
          placeholder={values.secret ? 'PASSWORD' : 'USERNAME'}
        />
        <SelectField
          label="Used in"
          value={values.environmentId}
          onChange={(event) => set({ environmentId: event.target.value })}
          options={[
            { value: '', label: 'Every environment (project-wide)' },
            ...project.environments.map((env) => ({ value: env.id, label: `${env.name} only` })),
          ]}
        />
      </div>
      <TextField
        label={values.secret ? 'Secret value' : 'Value'}
        type={values.secret ? 'password' : 'text'}
        autoComplete={values.secret ? 'new-password' : 'off'}
        spellCheck={false}
        icon={values.secret ? <KeyRound className="size-4" /> : undefined}
        value={values.value}
        onChange={(event) => set({ value: event.target.value })}
        error={errors.value}
      >
        <p className="mt-1.5 text-xs text-slate-500">
          {values.secret
            ? 'Encrypted on the server and never shown again; you can replace it later.'
            : 'Shown to anyone who opens this project.'}
        </p>
      </TextField>
      {replaces && (
        <p className="flex items-start gap-2 text-xs text-amber-800" data-testid="replaces-warning">
          <AlertTriangle className="mt-px size-3.5 shrink-0" aria-hidden />
          {replaces.name} already exists here: saving replaces its value.
        </p>
      )}
      <FormActions pending={save.isPending} onCancel={onDone}>
        {values.secret ? 'Save secret' : 'Save variable'}
      </FormActions>
    </form>
  );
}

/** Edits a variable's value, or replaces a secret (typed anew: the old one is never shown). */
function EditValueForm({
  projectId,
  variable,
  onDone,
}: {
  projectId: string;
  variable: Variable;
  onDone: () => void;
}) {
  const [value, setValue] = useState(variable.secret ? '' : (variable.value ?? ''));
  const [error, setError] = useState<string | undefined>();
  const save = useSaveVariable(projectId);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkVariable({
      name: variable.name,
      value,
      secret: variable.secret,
      environmentId: variable.environment_id ?? '',
    });
    if (checked.errors) {
      setError(checked.errors.value ?? checked.errors.name);
      return;
    }
    save.mutate(checked.body, {
      onSuccess: () => {
        setValue('');
        toast.success(
          variable.secret ? `Secret ${variable.name} replaced` : `Variable ${variable.name} saved`,
        );
        onDone();
      },
      onError: (failure) => {
        setError(errorText(failure, 'The value could not be saved'));
        toast.error(errorText(failure, 'The value could not be saved'));
      },
    });
  };
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={variable.secret ? `Replace ${variable.name}` : `Edit ${variable.name}`}
      className="flex flex-wrap items-end gap-2"
    >
      <TextField
        label={variable.secret ? `New value of ${variable.name}` : `Value of ${variable.name}`}
        type={variable.secret ? 'password' : 'text'}
        autoComplete={variable.secret ? 'new-password' : 'off'}
        spellCheck={false}
        className="min-w-0 flex-1 basis-48"
        placeholder={variable.secret ? 'Type the new secret' : undefined}
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          setError(undefined);
        }}
        error={error}
        autoFocus
      />
      <FormActions pending={save.isPending} onCancel={onDone} className="flex shrink-0 gap-2 pb-1.5">
        {variable.secret ? 'Replace' : 'Save'}
      </FormActions>
    </form>
  );
}

function ScopeTable({
  scope,
  projectId,
  editing,
  onEdit,
  onDelete,
}: {
  scope: VariableScope;
  projectId: string;
  editing: string | null;
  onEdit: (id: string | null) => void;
  onDelete: (variable: Variable) => void;
}) {
  const headingId = `scope-${scope.environmentId ?? 'project'}`;
  const canEdit = useCan('PUT /api/projects/:id/variables');
  const canDelete = useCan('DELETE /api/projects/:id/variables/:varId');
  return (
    <section aria-labelledby={headingId} data-testid="variable-scope" data-scope={scope.title}>
      <div className="mb-2 flex flex-wrap items-baseline gap-x-2">
        <h3 id={headingId} className="text-sm font-semibold text-slate-900">
          {scope.title}
        </h3>
        <p className="text-xs text-slate-500">{scope.hint}</p>
      </div>
      {scope.variables.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-200 px-3 py-2.5 text-xs text-slate-500">
          {scope.environmentId === null
            ? 'None yet. Add the values every environment shares, e.g. a test username.'
            : `None. ${scope.title} uses the project-wide values.`}
        </p>
      ) : (
        <div className="overflow-hidden rounded-lg border border-slate-200">
          <table className="w-full table-fixed text-left text-sm">
            <thead className="bg-slate-50 text-xs text-slate-600">
              <tr>
                <th scope="col" className="w-[32%] px-3 py-2 font-medium">
                  Name
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Value
                </th>
                <th scope="col" className="w-[7rem] px-3 py-2 text-right font-medium sm:w-[8rem]">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {scope.variables.map((variable) =>
                editing === variable.id ? (
                  <tr key={variable.id}>
                    <td colSpan={3} className="bg-indigo-50/40 px-3 py-3">
                      <EditValueForm projectId={projectId} variable={variable} onDone={() => onEdit(null)} />
                    </td>
                  </tr>
                ) : (
                  <tr key={variable.id} data-testid="variable-row" data-name={variable.name}>
                    <td className="px-3 py-2.5 align-middle">
                      <span
                        className="block truncate font-mono text-xs font-semibold text-slate-800"
                        title={variable.name}
                      >
                        {variable.name}
                      </span>
                    </td>
                    <td className="px-3 py-2.5 align-middle">
                      {variable.secret ? (
                        <span className="flex min-w-0 items-center gap-2" data-testid="secret-value">
                          <Lock className="size-3.5 shrink-0 text-slate-400" aria-hidden />
                          <span className="font-mono text-slate-700" aria-hidden>
                            {SECRET_MASK}
                          </span>
                          <span className="sr-only">Secret, hidden</span>
                          <span className="hidden sm:inline">
                            <Badge tone="amber">Secret</Badge>
                          </span>
                        </span>
                      ) : (
                        <span
                          className="block truncate font-mono text-xs text-slate-700"
                          title={variable.value ?? ''}
                          data-testid="variable-value"
                        >
                          {variable.value === '' ? (
                            <em className="font-sans text-slate-500">empty</em>
                          ) : (
                            variable.value
                          )}
                        </span>
                      )}
                    </td>
                    <td className="px-2 py-1.5 align-middle">
                      <div className="flex items-center justify-end gap-0.5">
                        {!canEdit ? null : variable.secret ? (
                          <SmallButton
                            variant="ghost"
                            className="px-2"
                            onClick={() => onEdit(variable.id)}
                            aria-label={`Replace ${variable.name}`}
                          >
                            Replace
                          </SmallButton>
                        ) : (
                          <IconButton
                            icon={Pencil}
                            label={`Edit ${variable.name}`}
                            onClick={() => onEdit(variable.id)}
                          />
                        )}
                        {canDelete && (
                          <IconButton
                            icon={Trash2}
                            label={`Delete ${variable.name}`}
                            onClick={() => onDelete(variable)}
                          />
                        )}
                      </div>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * Variables and secrets, one table per scope (project-wide, then each environment's own, which win
 * over project-wide values of the same name). Steps write them as {{NAME}}. A secret shows only as
 * its name and '••••', with 'Replace'.
 */
export function VariablesPanel({ project }: { project: Project }) {
  const variables = useVariables(project.id);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Variable | null>(null);
  const remove = useDeleteVariable(project.id);
  const canAdd = useCan('PUT /api/projects/:id/variables');

  const onDelete = () => {
    if (!deleting) return;
    const variable = deleting;
    remove.mutate(variable.id, {
      onSuccess: () => {
        setDeleting(null);
        toast.success(`${variable.name} deleted`);
      },
      onError: (error) => {
        setDeleting(null);
        toast.error(errorText(error, 'The variable could not be deleted'));
      },
    });
  };

  return (
    <Panel
      title="Variables and secrets"
      icon={Braces}
      subtitle="Steps write them as {{NAME}}"
      testId="variables-panel"
      aside={
        canAdd &&
        !adding &&
        variables.data && (
          <SmallButton icon={Plus} onClick={() => setAdding(true)}>
            Add variable
          </SmallButton>
        )
      }
    >
      {variables.isPending ? (
        <div className="flex justify-center py-6 text-indigo-600">
          <Spinner label="Loading variables" />
        </div>
      ) : variables.isError ? (
        <p className="text-sm text-red-700" role="alert">
          {errorText(variables.error, 'The variables could not be loaded')}
        </p>
      ) : (
        <div className="space-y-5">
          {adding && (
            <AddVariableForm project={project} variables={variables.data} onDone={() => setAdding(false)} />
          )}
          {variableScopes(variables.data, project.environments).map((scope) => (
            <ScopeTable
              key={scope.environmentId ?? 'project'}
              scope={scope}
              projectId={project.id}
              editing={editing}
              onEdit={setEditing}
              onDelete={setDeleting}
            />
          ))}
        </div>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? 'variable'}?`}
        description={
          deleting?.secret
            ? 'The secret is deleted; steps and logins that use it will fail until it is added again.'
            : 'Steps and logins that use it will fail until it is added again.'
        }
        confirmLabel={deleting?.secret ? 'Delete secret' : 'Delete variable'}
        pending={remove.isPending}
        onConfirm={onDelete}
        onClose={() => setDeleting(null)}
      />
    </Panel>
  );
}
