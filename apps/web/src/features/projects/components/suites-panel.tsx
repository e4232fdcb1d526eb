import type { RecordingSettings, SavedSuite } from '@argus/protocol';
import { ChevronDown, FileDown, History, ListChecks, Trash2 } from 'lucide-react';
import { type ComponentType, useId, useState } from 'react';
import toast from 'react-hot-toast';
import { Badge } from '../../../components/badge';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { IconButton } from '../../../components/icon-button';
import { Panel } from '../../../components/panel';
import { RecordingFields, TRACE_POLICY_LABELS } from '../../../components/recording-fields';
import { RetriesSelect, retriesLabel } from '../../../components/retries-select';
import { Spinner } from '../../../components/spinner';
import { errorText } from '../../../lib/api-error';
import { cn } from '../../../lib/cn';
import { useCan } from '../../../lib/organization';
import { useDeleteSuite } from '../api/delete-suite';
import { exportSummary, useExportSuite } from '../api/export-suite';
import { useProjectSuites } from '../api/list-suites';
import { isSuiteVersionConflict, useSaveSuite } from '../api/save-suite';
import { fullTime, plural, relativeTime } from '../model/format';
import { lastChange, recordingSave, retriesSave, testNames, versionHistory } from '../model/suites';
import { SuiteVisualEachCase } from './suite-visual-each-case';

/**
 * How many times a failed test of the suite runs again (docs/HISTORY.md#retries); one that then
 * passes is recorded as flaky. Saved on change, with no new version of the suite.
 */
function SuiteRetries({ suite }: { suite: SavedSuite }) {
  const id = useId();
  const save = useSaveSuite();
  // Saving the retries saves the suite: an editor's change; others read the setting.
  const canEdit = useCan('PUT /api/projects/:id/suites/:suiteId');
  const onChange = (retries: number) =>
    save.mutate(
      { projectId: suite.project_id, suiteId: suite.id, suite: retriesSave(suite, retries) },
      {
        onSuccess: () => toast.success(`${suite.name}: ${retriesLabel(retries).toLowerCase()}`),
        onError: (error) =>
          toast.error(
            isSuiteVersionConflict(error)
              ? `${suite.name} was saved elsewhere meanwhile; its retries were not changed`
              : errorText(error, 'The retries could not be saved'),
          ),
      },
    );
  return (
    <div className="mt-2 ml-6 flex flex-wrap items-center gap-2 text-xs text-slate-600">
      <RetriesSelect
        id={id}
        value={suite.retries}
        disabled={!canEdit || save.isPending}
        onChange={onChange}
        testId="suite-retries"
      />
      <span>A failed test runs again; one that then passes is marked flaky.</span>
      <SuiteVisualEachCase suite={suite} />
    </div>
  );
}

/**
 * Which of the suite's cases keep a Playwright trace, and whether failed ones keep a video
 * (docs/DIAGNOSTICS.md). Saved on change like the retries, with no new version.
 */
function SuiteRecording({ suite }: { suite: SavedSuite }) {
  const id = useId();
  const save = useSaveSuite();
  const canEdit = useCan('PUT /api/projects/:id/suites/:suiteId');
  const onChange = (recording: RecordingSettings) =>
    save.mutate(
      { projectId: suite.project_id, suiteId: suite.id, suite: recordingSave(suite, recording) },
      {
        onSuccess: () =>
          toast.success(
            `${suite.name}: traces ${TRACE_POLICY_LABELS[recording.trace].toLowerCase()}, video ${recording.video ? 'on' : 'off'}`,
          ),
        onError: (error) =>
          toast.error(
            isSuiteVersionConflict(error)
              ? `${suite.name} was saved elsewhere meanwhile; its recording was not changed`
              : errorText(error, 'The recording settings could not be saved'),
          ),
      },
    );
  return (
    <div className="mt-2 ml-6 flex flex-wrap items-center gap-2 text-xs text-slate-600">
      <RecordingFields
        id={id}
        value={suite.recording}
        disabled={!canEdit || save.isPending}
        onChange={onChange}
      />
    </div>
  );
}

/** What other features add to each suite (app/ composes them in: its repairs, 'Regenerate'). */
export type SuiteActions = ComponentType<{ suite: SavedSuite }>;

function SuiteItem({
  suite,
  now,
  onDelete,
  Actions,
}: {
  suite: SavedSuite;
  now: number;
  onDelete: (suite: SavedSuite) => void;
  Actions?: SuiteActions;
}) {
  const [open, setOpen] = useState(false);
  const exporting = useExportSuite(suite.project_id);
  const [exported, setExported] = useState<string | null>(null);
  const onExport = () =>
    exporting.mutate(
      { suiteId: suite.id },
      {
        onSuccess: (result) => {
          setExported(exportSummary(result));
          toast.success(`${suite.name}: ${exportSummary(result)}`);
        },
        onError: (error) => toast.error(errorText(error, 'The suite could not be exported')),
      },
    );
  const detailsId = useId();
  const canDelete = useCan('DELETE /api/projects/:id/suites/:suiteId');
  const change = lastChange(suite);
  return (
    <li className="py-3 first:pt-0 last:pb-0" data-testid="saved-suite" data-name={suite.name}>
      <div className="flex items-start gap-2">
        <button
          type="button"
          onClick={() => setOpen((value) => !value)}
          aria-expanded={open}
          aria-controls={detailsId}
          className="group flex min-w-0 flex-1 items-start gap-2 rounded-lg text-left focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <ChevronDown
            className={cn(
              'mt-0.5 size-4 shrink-0 text-slate-400 transition-transform group-hover:text-slate-600',
              !open && '-rotate-90',
            )}
            aria-hidden
          />
          <span className="min-w-0 flex-1">
            <span className="flex flex-wrap items-center gap-2">
              <span className="truncate text-sm font-semibold text-slate-900 group-hover:text-indigo-700">
                {suite.name}
              </span>
              <Badge tone="indigo">v{suite.version}</Badge>
              <span className="text-xs text-slate-600">{plural(suite.test_cases.length, 'test')}</span>
            </span>
            {change && (
              <span className="mt-0.5 block text-xs text-slate-600" title={fullTime(change.saved_at)}>
                {change.change} · {change.saved_by}, {relativeTime(change.saved_at, now)}
              </span>
            )}
          </span>
        </button>
        <IconButton
          icon={FileDown}
          label={`Export ${suite.name} to Playwright`}
          onClick={onExport}
          disabled={exporting.isPending}
        />
        {canDelete && (
          <IconButton icon={Trash2} label={`Delete ${suite.name}`} onClick={() => onDelete(suite)} />
        )}
      </div>
      {Actions && (
        <div className="mt-2 ml-6 flex flex-wrap items-center gap-x-4 gap-y-1">
          <Actions suite={suite} />
        </div>
      )}
      <SuiteRetries suite={suite} />
      <SuiteRecording suite={suite} />
      {exported && (
        <p className="mt-1 ml-6 text-xs text-slate-600" role="status" data-testid="suite-export-result">
          {exported}
        </p>
      )}
      {open && (
        <div id={detailsId} className="mt-3 ml-6 grid gap-4 sm:grid-cols-2" data-testid="suite-details">
          <div className="min-w-0">
            <h4 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Tests</h4>
            <ol className="mt-1.5 list-decimal space-y-1 pl-5 text-sm text-slate-700 marker:text-slate-500">
              {testNames(suite).map((name, index) => (
                <li key={index} className="break-words">
                  {name}
                </li>
              ))}
            </ol>
          </div>
          <div className="min-w-0">
            <h4 className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">
              <History className="size-3.5" aria-hidden />
              Versions
            </h4>
            <ol className="mt-1.5 space-y-2">
              {versionHistory(suite).map((version) => (
                <li key={version.version} className="text-xs text-slate-600" data-testid="suite-version">
                  <span className="font-semibold text-slate-800">v{version.version}</span> · {version.change}
                  <span className="block">
                    {version.saved_by}, {fullTime(version.saved_at)} · {plural(version.test_count, 'test')}
                  </span>
                </li>
              ))}
            </ol>
          </div>
        </div>
      )}
    </li>
  );
}

/** The project's saved suites: name, version, size, last change; opened, their tests and versions. */
export function SuitesPanel({ projectId, Actions }: { projectId: string; Actions?: SuiteActions }) {
  const suites = useProjectSuites(projectId);
  const [deleting, setDeleting] = useState<SavedSuite | null>(null);
  const remove = useDeleteSuite(projectId);
  const now = Date.now();

  const onDelete = () => {
    if (!deleting) return;
    const suite = deleting;
    remove.mutate(suite.id, {
      onSuccess: () => {
        setDeleting(null);
        toast.success(`${suite.name} deleted`);
      },
      onError: (error) => {
        setDeleting(null);
        toast.error(errorText(error, 'The suite could not be deleted'));
      },
    });
  };

  return (
    <Panel
      title="Saved suites"
      icon={ListChecks}
      subtitle="Tests kept with the project, versioned"
      testId="suites-panel"
    >
      {suites.isPending ? (
        <div className="flex justify-center py-6 text-indigo-600">
          <Spinner label="Loading saved suites" />
        </div>
      ) : suites.isError ? (
        <p className="text-sm text-red-700" role="alert">
          {errorText(suites.error, 'The saved suites could not be loaded')}
        </p>
      ) : suites.data.length === 0 ? (
        <EmptyState
          icon={ListChecks}
          title="No saved suites yet"
          hint="Generate tests in Automation Mode and save them to this project to run them again on any environment."
        />
      ) : (
        <ul className="divide-y divide-slate-100">
          {suites.data.map((suite) => (
            <SuiteItem key={suite.id} suite={suite} now={now} onDelete={setDeleting} Actions={Actions} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? 'suite'}?`}
        description="Every version of the suite is deleted. Past runs stay in the run list."
        confirmLabel="Delete suite"
        pending={remove.isPending}
        onConfirm={onDelete}
        onClose={() => setDeleting(null)}
      />
    </Panel>
  );
}
