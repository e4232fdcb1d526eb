import type { Environment, Project } from '@argus/protocol';
import { Layers, Pencil, Plus, Star, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { Badge } from '../../../components/badge';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { IconButton } from '../../../components/icon-button';
import { Panel } from '../../../components/panel';
import { SmallButton } from '../../../components/small-button';
import { ApiError, errorText } from '../../../lib/api-error';
import { useCan } from '../../../lib/organization';
import { useCreateEnvironment } from '../api/create-environment';
import { useDeleteEnvironment } from '../api/delete-environment';
import { useUpdateEnvironment } from '../api/update-environment';
import { checkEnvironment, type EnvironmentErrors } from '../model/project-form';
import { EnvironmentFields } from './environment-fields';
import { FormActions } from './form-actions';

function EnvironmentForm({
  initial,
  others,
  submitLabel,
  pending,
  onSubmit,
  onCancel,
  label,
}: {
  initial: { name: string; baseUrl: string };
  others: string[];
  submitLabel: string;
  pending: boolean;
  onSubmit: (body: { name: string; base_url: string }, fail: (errors: EnvironmentErrors) => void) => void;
  onCancel: () => void;
  label: string;
}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<EnvironmentErrors>({});
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkEnvironment(values, others);
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    onSubmit(checked.body, setErrors);
  };
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={label}
      className="space-y-3 rounded-xl border border-indigo-200 bg-indigo-50/40 p-4"
    >
      <EnvironmentFields
        values={values}
        errors={errors}
        onChange={(field, value) => {
          setValues({ ...values, [field]: value });
          setErrors({ ...errors, [field]: undefined });
        }}
        baseUrlPlaceholder="https://staging.example.com"
      />
      <FormActions pending={pending} onCancel={onCancel}>
        {submitLabel}
      </FormActions>
    </form>
  );
}

/** Field errors of a 422 answer about an environment. */
function environmentFieldErrors(error: unknown): EnvironmentErrors {
  const errors: EnvironmentErrors = {};
  if (!(error instanceof ApiError)) return errors;
  for (const issue of error.issues) {
    const field = issue.loc[issue.loc.length - 1];
    if (field === 'name') errors.name ??= issue.msg;
    if (field === 'base_url') errors.baseUrl ??= issue.msg;
  }
  return errors;
}

/** One environment as listed: name, base URL, Default badge; make default, edit, delete. */
function EnvironmentItem({
  env,
  onlyOne,
  updating,
  canEdit,
  canDelete,
  onMakeDefault,
  onEdit,
  onDelete,
}: {
  env: Environment;
  /** The caller's role may change it (the permission table), and delete it. */
  canEdit: boolean;
  canDelete: boolean;
  /** The project's only environment, which cannot be deleted. */
  onlyOne: boolean;
  updating: boolean;
  onMakeDefault: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <li
      className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3 first:pt-0 last:pb-0"
      data-testid="environment"
      data-default={String(env.is_default)}
    >
      <div className="min-w-0 flex-1 basis-48">
        <p className="flex items-center gap-2 text-sm font-semibold text-slate-900">
          <span className="truncate">{env.name}</span>
          {env.is_default && <Badge tone="green">Default</Badge>}
        </p>
        <p className="truncate font-mono text-xs text-slate-600" title={env.base_url}>
          {env.base_url}
        </p>
      </div>
      <div className="flex shrink-0 items-center gap-1">
        {canEdit && !env.is_default && (
          <SmallButton variant="ghost" icon={Star} onClick={onMakeDefault} disabled={updating}>
            Make default<span className="sr-only">: {env.name}</span>
          </SmallButton>
        )}
        {canEdit && <IconButton icon={Pencil} label={`Edit ${env.name}`} onClick={onEdit} />}
        {canDelete && (
          <IconButton
            icon={Trash2}
            label={onlyOne ? 'A project needs at least one environment' : `Delete ${env.name}`}
            disabled={onlyOne}
            onClick={onDelete}
          />
        )}
      </div>
    </li>
  );
}

/**
 * The form for a new environment, open under the panel's title until added or cancelled; `create`
 * is the panel's, so an answer that comes after a Cancel is still told.
 */
function AddEnvironmentForm({
  others,
  create,
  onDone,
}: {
  others: string[];
  create: ReturnType<typeof useCreateEnvironment>;
  onDone: () => void;
}) {
  return (
    <EnvironmentForm
      label="New environment"
      initial={{ name: '', baseUrl: '' }}
      others={others}
      submitLabel="Add environment"
      pending={create.isPending}
      onCancel={onDone}
      onSubmit={(body, fail) =>
        create.mutate(body, {
          onSuccess: (env) => {
            onDone();
            toast.success(`${env.name} added`);
          },
          onError: (error) => {
            fail(environmentFieldErrors(error));
            toast.error(errorText(error, 'The environment could not be added'));
          },
        })
      }
    />
  );
}

/** An environment's edit form, in its row; saved with the panel's update (which Make default shares). */
function EditEnvironmentForm({
  env,
  others,
  update,
  onDone,
}: {
  env: Environment;
  others: string[];
  update: ReturnType<typeof useUpdateEnvironment>;
  onDone: () => void;
}) {
  return (
    <EnvironmentForm
      label={`Edit ${env.name}`}
      initial={{ name: env.name, baseUrl: env.base_url }}
      others={others}
      submitLabel="Save"
      pending={update.isPending}
      onCancel={onDone}
      onSubmit={(body, fail) =>
        update.mutate(
          { environmentId: env.id, body },
          {
            onSuccess: () => {
              onDone();
              toast.success('Environment saved');
            },
            onError: (error) => {
              fail(environmentFieldErrors(error));
              toast.error(errorText(error, 'The environment could not be saved'));
            },
          },
        )
      }
    />
  );
}

/** Asks before deleting `env` (its own variables and secrets go with it); closed while `env` is null. */
function DeleteEnvironmentDialog({
  projectId,
  env,
  onClose,
}: {
  projectId: string;
  env: Environment | null;
  onClose: () => void;
}) {
  const remove = useDeleteEnvironment(projectId);
  const onConfirm = () => {
    if (!env) return;
    remove.mutate(env.id, {
      onSuccess: () => {
        onClose();
        toast.success(`${env.name} deleted`);
      },
      onError: (error) => {
        onClose();
        toast.error(errorText(error, 'The environment could not be deleted'));
      },
    });
  };
  return (
    <ConfirmDialog
      open={env !== null}
      title={`Delete ${env?.name ?? 'environment'}?`}
      description="Its own variables and secrets are deleted with it. Project-wide values stay."
      confirmLabel="Delete environment"
      pending={remove.isPending}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}

/**
 * The project's environments: each a name and a base URL, one the default (what runs use unless told
 * otherwise). Add, edit, make default, delete (not the last one: a project needs one).
 */
export function EnvironmentsPanel({ project }: { project: Project }) {
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Environment | null>(null);
  const create = useCreateEnvironment(project.id);
  const update = useUpdateEnvironment(project.id);
  const canAdd = useCan('POST /api/projects/:id/environments');
  const canEdit = useCan('PUT /api/projects/:id/environments/:envId');
  const canDelete = useCan('DELETE /api/projects/:id/environments/:envId');
  const environments = project.environments;
  const names = (except?: string) => environments.filter((env) => env.id !== except).map((env) => env.name);

  const makeDefault = (env: Environment) =>
    update.mutate(
      { environmentId: env.id, body: { is_default: true } },
      {
        onSuccess: () => toast.success(`${env.name} is now the default`),
        onError: (error) => toast.error(errorText(error, 'The default could not be changed')),
      },
    );

  return (
    <Panel
      title="Environments"
      icon={Layers}
      subtitle="Where tests run, each with its own base URL"
      testId="environments-panel"
      aside={
        canAdd &&
        !adding && (
          <SmallButton icon={Plus} onClick={() => setAdding(true)}>
            Add environment
          </SmallButton>
        )
      }
    >
      <div className="space-y-3">
        {adding && <AddEnvironmentForm others={names()} create={create} onDone={() => setAdding(false)} />}
        <ul className="divide-y divide-slate-100" aria-label="Environments">
          {environments.map((env) =>
            editing === env.id ? (
              <li key={env.id} className="py-3 first:pt-0">
                <EditEnvironmentForm
                  env={env}
                  others={names(env.id)}
                  update={update}
                  onDone={() => setEditing(null)}
                />
              </li>
            ) : (
              <EnvironmentItem
                key={env.id}
                env={env}
                onlyOne={environments.length === 1}
                updating={update.isPending}
                canEdit={canEdit}
                canDelete={canDelete}
                onMakeDefault={() => makeDefault(env)}
                onEdit={() => setEditing(env.id)}
                onDelete={() => setDeleting(env)}
              />
            ),
          )}
        </ul>
      </div>
      <DeleteEnvironmentDialog projectId={project.id} env={deleting} onClose={() => setDeleting(null)} />
    </Panel>
  );
}
