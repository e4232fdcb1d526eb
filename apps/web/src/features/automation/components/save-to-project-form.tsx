import type { SavedSuite, TestCase } from '@argus/protocol';
import { RefreshCw, Save, X } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { SelectField } from '../../../components/select-field';
import { SmallButton } from '../../../components/small-button';
import { TextField } from '../../../components/text-field';
import { errorText } from '../../../lib/api-error';
import { useProjectList } from '../../../lib/projects/project-list';
import {
  checkSave,
  initialDraft,
  NEW_SUITE,
  type SaveDraft,
  SUITE_NAME_MAX,
  savedText,
  suiteLabel,
} from '../model/save-to-project';
import type { AutomationProjects, ProjectSuitesState } from '../types';

/** What was saved, for the line that links to it. */
export interface SavedToProject {
  projectId: string;
  projectName: string;
  suite: SavedSuite;
}

export interface SaveToProjectFormProps {
  projects: AutomationProjects;
  testCases: readonly TestCase[];
  /** The page the cases were made for: their URLs on it are stored relative to the environment. */
  sourceUrl: string | null;
  /** The project the work runs on, chosen first. */
  defaultProjectId: string | null;
  onSaved: (saved: SavedToProject) => void;
  onClose: () => void;
}

/**
 * "Save to project" (docs/PROJECTS.md#saved-suites): the cases as a new suite of a project, or as a
 * new version of one of its suites. A save over a newer version is refused (409): the form says so
 * and offers to reload the suites.
 */
export function SaveToProjectForm(props: SaveToProjectFormProps) {
  const { Suites } = props.projects;
  const [draft, setDraft] = useState<SaveDraft>(() => initialDraft(props.defaultProjectId));
  return (
    <Suites projectId={draft.projectId}>
      {(suites) => <SaveForm {...props} draft={draft} onDraftChange={setDraft} suites={suites} />}
    </Suites>
  );
}

function SaveForm({
  projects,
  testCases,
  sourceUrl,
  onSaved,
  onClose,
  draft,
  onDraftChange,
  suites,
}: SaveToProjectFormProps & {
  draft: SaveDraft;
  onDraftChange: (draft: SaveDraft) => void;
  suites: ProjectSuitesState;
}) {
  const list = useProjectList();
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<{ text: string; conflict: boolean } | null>(null);
  // API projects cannot run tests yet; their suites would have nowhere to run.
  const choices = (list.data ?? [])
    .filter((p) => p.kind !== 'api')
    .sort((a, b) => a.name.localeCompare(b.name));
  const projectName = choices.find((p) => p.id === draft.projectId)?.name ?? '';
  const check = checkSave(draft, suites.suites, testCases, sourceUrl);
  const shown = touched ? check.problem : null;
  const existing = suites.suites?.find((s) => s.id === draft.suiteId);

  const change = (next: Partial<SaveDraft>) => {
    setFailure(null);
    onDraftChange({ ...draft, ...next });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!check.request || saving) return;
    setSaving(true);
    setFailure(null);
    try {
      const suite = await projects.saveSuite(check.request);
      toast.success(savedText(projectName || 'the project'));
      onSaved({ projectId: draft.projectId, projectName, suite });
    } catch (error) {
      setFailure({
        text: errorText(error, 'The suite could not be saved'),
        conflict: projects.isVersionConflict(error),
      });
    } finally {
      setSaving(false);
    }
  };

  const reload = () => {
    setFailure(null);
    suites.reload();
  };

  const suiteOptions = [
    { value: NEW_SUITE, label: 'New suite' },
    ...(suites.suites ?? []).map((s) => ({ value: s.id, label: suiteLabel(s) })),
  ];

  return (
    <form
      onSubmit={submit}
      noValidate
      className="mb-4 space-y-3 rounded-xl border border-indigo-200 bg-indigo-50/40 p-4"
      aria-label="Save to project"
      data-testid="save-to-project-form"
    >
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold text-slate-900">Save to project</h3>
        <button
          type="button"
          onClick={onClose}
          className="rounded-md p-1 text-slate-500 hover:bg-white hover:text-slate-800"
          aria-label="Close save to project"
        >
          <X className="size-4" aria-hidden />
        </button>
      </div>
      <p className="text-xs text-slate-600">
        {testCases.length} test case{testCases.length === 1 ? '' : 's'}, with addresses kept relative to the
        project's environment.
      </p>
      <SelectField
        label="Project"
        value={draft.projectId}
        disabled={list.isPending}
        onChange={(event) => change({ projectId: event.target.value, suiteId: NEW_SUITE })}
        options={[
          {
            value: '',
            label: list.isPending
              ? 'Loading projects...'
              : choices.length
                ? 'Choose a project'
                : 'No projects yet',
          },
          ...choices.map((p) => ({ value: p.id, label: p.name })),
        ]}
        error={shown?.field === 'project' ? shown.text : undefined}
      />
      {draft.projectId && (
        <SelectField
          label="Suite"
          value={draft.suiteId}
          disabled={suites.loading}
          onChange={(event) => change({ suiteId: event.target.value })}
          options={suiteOptions}
          hint={
            suites.loading
              ? 'Loading suites...'
              : suites.failed
                ? 'The suites could not be loaded.'
                : existing
                  ? `Saved as version ${existing.version + 1} of ${existing.name}.`
                  : undefined
          }
          error={shown?.field === 'suite' ? shown.text : undefined}
        />
      )}
      {draft.projectId && draft.suiteId === NEW_SUITE && (
        <TextField
          label="Suite name"
          value={draft.name}
          maxLength={SUITE_NAME_MAX + 50}
          placeholder="e.g. Tickets"
          onChange={(event) => change({ name: event.target.value })}
          error={shown?.field === 'name' ? shown.text : undefined}
        />
      )}
      {shown?.field === 'cases' && (
        <p className="text-xs text-red-600" role="alert">
          {shown.text}
        </p>
      )}
      {failure && (
        <div
          className="rounded-lg bg-red-50 px-3 py-2 text-xs text-red-800 ring-1 ring-red-200 ring-inset"
          role="alert"
          data-testid="save-to-project-error"
        >
          <p className="break-words">{failure.text}</p>
          {failure.conflict && (
            <SmallButton icon={RefreshCw} onClick={reload} className="mt-2">
              Reload suites
            </SmallButton>
          )}
        </div>
      )}
      <div className="flex justify-end gap-2">
        <SmallButton onClick={onClose}>Cancel</SmallButton>
        <SmallButton type="submit" variant="primary" icon={Save} disabled={saving || testCases.length === 0}>
          {saving ? 'Saving...' : 'Save suite'}
        </SmallButton>
      </div>
    </form>
  );
}
