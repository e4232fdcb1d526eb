import { PROJECT_KINDS, type ProjectKind } from '@argus/protocol';
import { AlertTriangle, FolderKanban, FolderPlus, Layers, Loader2, Plus, Trash2 } from 'lucide-react';
import { type Dispatch, type FormEvent, type SetStateAction, useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/button';
import { IconButton } from '../../components/icon-button';
import { Panel } from '../../components/panel';
import { SegmentedControl } from '../../components/segmented-control';
import { SmallButton } from '../../components/small-button';
import { TextAreaField } from '../../components/text-area-field';
import { TextField } from '../../components/text-field';
import { ApiError, errorText } from '../../lib/api-error';
import { useCan } from '../../lib/organization';
import { useCreateProject } from './api/create-project';
import { EnvironmentFields } from './components/environment-fields';
import { KIND_ICON } from './components/kind-icons';
import { PageTitle } from './components/page-title';
import { serverIssues } from './model/issues';
import { API_NOT_TESTABLE, KIND_TEXT } from './model/kinds';
import { projectPagePath } from './model/paths';
import {
  checkNewProject,
  type EnvironmentDraft,
  hasErrors,
  initialNewProject,
  type NewProjectErrors,
  type NewProjectValues,
  newProjectErrors,
  nextEnvironment,
} from './model/project-form';

const MAX_ENVIRONMENTS = 20;
const NO_ERRORS: NewProjectErrors = { rows: {} };

const KIND_OPTIONS = PROJECT_KINDS.map((kind) => ({
  value: kind,
  label: KIND_TEXT[kind].short,
  hint: KIND_TEXT[kind].label,
  icon: KIND_ICON[kind],
}));

function EnvironmentRow({
  row,
  index,
  isDefault,
  removable,
  errors,
  onChange,
  onMakeDefault,
  onRemove,
}: {
  row: EnvironmentDraft;
  index: number;
  isDefault: boolean;
  removable: boolean;
  errors: { name?: string; baseUrl?: string } | undefined;
  onChange: (row: EnvironmentDraft) => void;
  onMakeDefault: () => void;
  onRemove: () => void;
}) {
  const label = row.name.trim() || `environment ${index + 1}`;
  return (
    <li
      className="rounded-xl border border-slate-200 bg-slate-50/60 p-4"
      data-testid="environment-row"
      aria-label={`Environment ${index + 1}`}
    >
      <div className="mb-3 flex items-center gap-3">
        <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
          Environment {index + 1}
        </p>
        <label className="ml-auto inline-flex cursor-pointer items-center gap-2 text-sm text-slate-700">
          <input
            type="radio"
            name="default-environment"
            checked={isDefault}
            onChange={onMakeDefault}
            className="size-4 accent-indigo-600"
            aria-label={`Make ${label} the default`}
          />
          Default
        </label>
        {removable && (
          <IconButton icon={Trash2} label={`Remove ${label}`} onClick={onRemove} className="-my-1" />
        )}
      </div>
      <EnvironmentFields
        values={row}
        errors={errors}
        onChange={(field, value) => onChange({ ...row, [field]: value })}
        baseUrlPlaceholder={index === 0 ? 'https://shop.example.com' : 'https://staging.shop.example.com'}
      />
    </li>
  );
}

type Update = (change: Partial<NewProjectValues>, clear?: keyof Omit<NewProjectErrors, 'rows'>) => void;

/** The project itself: name, description and kind (with what the kind means, and API's warning). */
function ProjectDetailsPanel({
  values,
  errors,
  update,
}: {
  values: NewProjectValues;
  errors: NewProjectErrors;
  update: Update;
}) {
  return (
    <Panel title="Project" icon={FolderKanban} testId="project-details">
      <div className="space-y-4">
        <TextField
          label="Name"
          name="name"
          autoComplete="off"
          maxLength={200}
          value={values.name}
          onChange={(event) => update({ name: event.target.value }, 'name')}
          error={errors.name}
          placeholder="Online shop"
          required
        />
        <TextAreaField
          label="Description (optional)"
          name="description"
          rows={2}
          maxLength={2000}
          value={values.description}
          onChange={(event) => update({ description: event.target.value }, 'description')}
          error={errors.description}
          placeholder="What the site is and what matters most to test"
        />
        <SegmentedControl
          legend="Kind"
          name="kind"
          columns={3}
          value={values.kind}
          onChange={(kind) => update({ kind })}
          options={KIND_OPTIONS}
        >
          <p className="mt-1.5 text-xs text-slate-500" data-testid="kind-hint">
            {KIND_TEXT[values.kind].description}
          </p>
          {values.kind === 'api' && (
            <p className="mt-2 flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-xs text-amber-900 ring-1 ring-amber-200 ring-inset">
              <AlertTriangle className="mt-px size-3.5 shrink-0" aria-hidden />
              {API_NOT_TESTABLE}
            </p>
          )}
        </SegmentedControl>
      </div>
    </Panel>
  );
}

/** The first environments, one row each (up to 20), one of them the default. */
function EnvironmentsFormPanel({
  values,
  errors,
  setValues,
  setErrors,
}: {
  values: NewProjectValues;
  errors: NewProjectErrors;
  setValues: Dispatch<SetStateAction<NewProjectValues>>;
  setErrors: Dispatch<SetStateAction<NewProjectErrors>>;
}) {
  const updateRow = (row: EnvironmentDraft) => {
    setValues((current) => ({
      ...current,
      environments: current.environments.map((r) => (r.key === row.key ? row : r)),
    }));
    setErrors((current) => {
      const { [row.key]: _cleared, ...rows } = current.rows;
      return { ...current, rows, environments: undefined };
    });
  };

  const addRow = () =>
    setValues((current) => ({
      ...current,
      environments: [...current.environments, nextEnvironment(current.environments)],
    }));

  const removeRow = (key: string) =>
    setValues((current) => {
      const environments = current.environments.filter((r) => r.key !== key);
      const defaultKey = current.defaultKey === key ? (environments[0]?.key ?? '') : current.defaultKey;
      return { ...current, environments, defaultKey };
    });

  return (
    <Panel title="Environments" icon={Layers} subtitle="Where the project runs" testId="environments-form">
      <ol className="space-y-3">
        {values.environments.map((row, index) => (
          <EnvironmentRow
            key={row.key}
            row={row}
            index={index}
            isDefault={row.key === values.defaultKey}
            removable={values.environments.length > 1}
            errors={errors.rows[row.key]}
            onChange={updateRow}
            onMakeDefault={() => setValues((current) => ({ ...current, defaultKey: row.key }))}
            onRemove={() => removeRow(row.key)}
          />
        ))}
      </ol>
      {errors.environments && (
        <p className="mt-3 text-sm text-red-600" role="alert">
          {errors.environments}
        </p>
      )}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <SmallButton icon={Plus} onClick={addRow} disabled={values.environments.length >= MAX_ENVIRONMENTS}>
          Add environment
        </SmallButton>
        <p className="text-xs text-slate-500">
          Tests run on the default one unless you choose another. You can add more later.
        </p>
      </div>
    </Panel>
  );
}

/**
 * /projects/new: name, description, kind and the first environments, checked with the shared schemas
 * as the server checks them; a created project opens on its page. `initialKind` comes from the page a
 * user started on (?kind=).
 */
export function NewProjectScreen({ initialKind = 'web' }: { initialKind?: ProjectKind }) {
  const [values, setValues] = useState<NewProjectValues>(() => initialNewProject(initialKind));
  const [errors, setErrors] = useState<NewProjectErrors>(NO_ERRORS);
  const create = useCreateProject();
  const navigate = useNavigate();

  const update = (change: Partial<NewProjectValues>, clear?: keyof Omit<NewProjectErrors, 'rows'>) => {
    setValues((current) => ({ ...current, ...change }));
    if (clear) setErrors((current) => ({ ...current, [clear]: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkNewProject(values);
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors(NO_ERRORS);
    create.mutate(checked.body, {
      onSuccess: (project) => {
        toast.success('Project created');
        navigate(projectPagePath(project.id));
      },
      onError: (error) => {
        if (error instanceof ApiError && error.issues.length > 0)
          setErrors(newProjectErrors(values, serverIssues(error.issues)));
        toast.error(errorText(error, 'The project could not be created'));
      },
    });
  };

  const invalid = hasErrors(errors);
  const canCreate = useCan('POST /api/projects');

  if (!canCreate)
    return (
      <div className="mx-auto max-w-3xl space-y-6" data-testid="new-project-screen">
        <PageTitle
          icon={FolderPlus}
          title="New project"
          description="Making projects needs the editor role in this organization; ask an admin to change yours."
        />
      </div>
    );

  return (
    <div className="mx-auto max-w-3xl space-y-6" data-testid="new-project-screen">
      <PageTitle
        icon={FolderPlus}
        title="New project"
        description="A site you test again and again: its environments, sign-in and saved suites in one place."
      />
      <form onSubmit={onSubmit} noValidate className="space-y-6" aria-label="New project">
        <ProjectDetailsPanel values={values} errors={errors} update={update} />
        <EnvironmentsFormPanel values={values} errors={errors} setValues={setValues} setErrors={setErrors} />

        <div className="flex flex-wrap items-center justify-end gap-3">
          {invalid && (
            <p
              className="w-full text-sm text-red-600 sm:mr-auto sm:w-auto"
              role="alert"
              data-testid="form-problems"
            >
              Check the fields marked in red.
            </p>
          )}
          <Link
            to={KIND_TEXT[values.kind].path}
            className="rounded-lg px-4 py-2.5 text-sm font-semibold text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            Cancel
          </Link>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending && <Loader2 className="size-4 animate-spin" aria-hidden />}
            {create.isPending ? 'Creating...' : 'Create project'}
          </Button>
        </div>
      </form>
    </div>
  );
}
