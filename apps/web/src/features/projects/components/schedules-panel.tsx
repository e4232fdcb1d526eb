import {
  type Project,
  SCHEDULE_PRESETS,
  type Schedule,
  type ScheduleInput,
  type SchedulePreset,
} from '@argus/protocol';
import { CalendarClock, Pause, Play, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { Badge } from '../../../components/badge';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { IconButton } from '../../../components/icon-button';
import { Panel } from '../../../components/panel';
import { SegmentedControl } from '../../../components/segmented-control';
import { SelectField } from '../../../components/select-field';
import { SmallButton } from '../../../components/small-button';
import { Spinner } from '../../../components/spinner';
import { TextField } from '../../../components/text-field';
import { ApiError, errorText } from '../../../lib/api-error';
import { useCan } from '../../../lib/organization';
import { useCreateSchedule } from '../api/create-schedule';
import { useDeleteSchedule } from '../api/delete-schedule';
import { useSchedules } from '../api/list-schedules';
import { useProjectSuites } from '../api/list-suites';
import { useUpdateSchedule } from '../api/update-schedule';
import { fullTime, relativeTime } from '../model/format';
import { FormActions } from './form-actions';

type Repeat = SchedulePreset | 'custom';

const REPEAT_OPTIONS = [
  { value: 'hourly', label: 'Hourly', hint: 'At the start of every hour' },
  { value: 'nightly', label: 'Nightly', hint: 'Every night at 02:00' },
  { value: 'weekly', label: 'Weekly', hint: 'Mondays at 06:00' },
  { value: 'custom', label: 'Custom cron', hint: 'Your own cron expression' },
] as const;

const REPEAT_TEXT: Record<SchedulePreset, string> = {
  hourly: 'Every hour, at :00',
  nightly: 'Every night at 02:00',
  weekly: 'Every Monday at 06:00',
};

/** The browser's own time zone, the form's default. */
function localZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every IANA zone the browser knows, UTC first. */
function zoneOptions(current: string): { value: string; label: string }[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  const all = ['UTC', ...zones.filter((zone) => zone !== 'UTC')];
  if (!all.includes(current)) all.unshift(current);
  return all.map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }));
}

/** 'in 5 min', 'in 3 h', 'tomorrow', then the date. */
function untilText(iso: string | null, now = Date.now()): string {
  if (!iso) return '';
  const ms = new Date(iso).getTime() - now;
  if (ms < 60_000) return 'in under a minute';
  if (ms < 3_600_000) return `in ${Math.round(ms / 60_000)} min`;
  if (ms < 86_400_000) return `in ${Math.round(ms / 3_600_000)} h`;
  if (ms < 2 * 86_400_000) return 'tomorrow';
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' }).format(new Date(iso));
}

/** 'Mon 30 Nov, 06:00', in the schedule's own time zone. */
function dueText(iso: string, zone: string): string {
  try {
    return new Intl.DateTimeFormat('en-GB', {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: zone,
    }).format(new Date(iso));
  } catch {
    return fullTime(iso);
  }
}

const OUTCOME: Record<
  NonNullable<Schedule['last_outcome']>,
  { label: string; tone: 'green' | 'amber' | 'orange' | 'red' }
> = {
  started: { label: 'Started', tone: 'green' },
  waiting: { label: 'Waiting', tone: 'amber' },
  skipped: { label: 'Skipped', tone: 'orange' },
  error: { label: 'Not started', tone: 'red' },
};

interface ScheduleErrors {
  suite?: string;
  cron?: string;
  timezone?: string;
}

function scheduleFieldErrors(error: unknown): ScheduleErrors {
  const errors: ScheduleErrors = {};
  if (!(error instanceof ApiError)) return errors;
  for (const issue of error.issues) {
    const field = issue.loc[issue.loc.length - 1];
    if (field === 'cron' || field === 'preset') errors.cron ??= issue.msg;
    if (field === 'timezone') errors.timezone ??= issue.msg;
    if (field === 'suite_id') errors.suite ??= issue.msg;
  }
  return errors;
}

/** Adds a schedule: which suite, on which environment, when (a preset or a cron expression), in which zone. */
function AddScheduleForm({ project, onDone }: { project: Project; onDone: () => void }) {
  const suites = useProjectSuites(project.id);
  const defaultEnvironment = project.environments.find((env) => env.is_default) ?? project.environments[0];
  const [suiteId, setSuiteId] = useState('');
  const [environmentId, setEnvironmentId] = useState(defaultEnvironment?.id ?? '');
  const [repeat, setRepeat] = useState<Repeat>('nightly');
  const [cron, setCron] = useState('*/30 * * * *');
  const [timezone, setTimezone] = useState(localZone);
  const [errors, setErrors] = useState<ScheduleErrors>({});
  const zones = useMemo(() => zoneOptions(timezone), [timezone]);
  const create = useCreateSchedule(project.id);
  const chosenSuite = suiteId || suites.data?.[0]?.id || '';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!chosenSuite) {
      setErrors({ suite: 'Save a suite in this project first' });
      return;
    }
    if (repeat === 'custom' && !cron.trim()) {
      setErrors({ cron: 'Write a cron expression: minute hour day month weekday' });
      return;
    }
    const body: ScheduleInput = {
      suite_id: chosenSuite,
      environment_id: environmentId || null,
      timezone,
      ...(repeat === 'custom' ? { cron: cron.trim() } : { preset: repeat }),
    };
    create.mutate(body, {
      onSuccess: (saved) => {
        toast.success(
          saved.next_run_at
            ? `Scheduled: next run ${dueText(saved.next_run_at, saved.timezone)} (${saved.timezone})`
            : 'Schedule saved',
        );
        onDone();
      },
      onError: (error) => {
        setErrors(scheduleFieldErrors(error));
        toast.error(errorText(error, 'The schedule could not be saved'));
      },
    });
  };

  const suiteOptions = (suites.data ?? []).map((suite) => ({ value: suite.id, label: suite.name }));
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="New schedule"
      className="space-y-4 rounded-xl border border-indigo-200 bg-indigo-50/40 p-4"
      data-testid="schedule-form"
    >
      <h3 className="text-sm font-semibold text-slate-900">New schedule</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label="Suite"
          value={chosenSuite}
          onChange={(event) => {
            setSuiteId(event.target.value);
            setErrors({});
          }}
          options={
            suiteOptions.length ? suiteOptions : [{ value: '', label: 'No saved suites yet', disabled: true }]
          }
          error={errors.suite}
        />
        <SelectField
          label="Environment"
          value={environmentId}
          onChange={(event) => setEnvironmentId(event.target.value)}
          options={project.environments.map((env) => ({
            value: env.id,
            label: env.is_default ? `${env.name} (default)` : env.name,
          }))}
        />
      </div>
      <SegmentedControl
        legend="Repeat"
        name="schedule-repeat"
        value={repeat}
        onChange={(value) => {
          setRepeat(value);
          setErrors({});
        }}
        options={REPEAT_OPTIONS}
      >
        <p className="mt-1.5 text-xs text-slate-500" data-testid="repeat-hint">
          {repeat === 'custom'
            ? 'Five fields: minute hour day-of-month month day-of-week. At most once a minute.'
            : `${REPEAT_TEXT[repeat]} (${SCHEDULE_PRESETS[repeat]}), in the time zone below.`}
        </p>
      </SegmentedControl>
      {repeat === 'custom' && (
        <TextField
          label="Cron expression"
          autoComplete="off"
          spellCheck={false}
          className="[&_input]:font-mono"
          value={cron}
          onChange={(event) => {
            setCron(event.target.value);
            setErrors({});
          }}
          error={errors.cron}
          placeholder="*/30 * * * *"
        />
      )}
      {repeat !== 'custom' && errors.cron && (
        <p className="text-sm text-red-600" role="alert">
          {errors.cron}
        </p>
      )}
      <SelectField
        label="Time zone"
        value={timezone}
        onChange={(event) => {
          setTimezone(event.target.value);
          setErrors({});
        }}
        options={zones}
        error={errors.timezone}
      />
      <FormActions pending={create.isPending} onCancel={onDone}>
        Save schedule
      </FormActions>
    </form>
  );
}

function ScheduleRow({
  schedule,
  onToggle,
  onDelete,
  toggling,
}: {
  schedule: Schedule;
  onToggle: () => void;
  onDelete: () => void;
  toggling: boolean;
}) {
  const canToggle = useCan('PUT /api/projects/:id/schedules/:scheduleId');
  const canDelete = useCan('DELETE /api/projects/:id/schedules/:scheduleId');
  const outcome = schedule.last_outcome ? OUTCOME[schedule.last_outcome] : null;
  const when = schedule.preset ? REPEAT_TEXT[schedule.preset] : schedule.cron;
  return (
    <li className="flex items-start gap-3 py-3 first:pt-0 last:pb-0" data-testid="schedule-row">
      <div className="min-w-0 flex-1 space-y-1">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm font-medium text-slate-900">
          <span className="truncate">{schedule.suite_name ?? 'Deleted suite'}</span>
          <span className="text-xs font-normal text-slate-500">on {schedule.environment_name ?? '—'}</span>
          {!schedule.enabled && <Badge tone="slate">Paused</Badge>}
        </p>
        <p className="text-xs text-slate-600">
          <span className={schedule.preset ? '' : 'font-mono'}>{when}</span> ·{' '}
          {schedule.timezone.replaceAll('_', ' ')}
        </p>
        <p className="text-xs text-slate-600">
          {schedule.enabled && schedule.next_run_at ? (
            <>
              Next{' '}
              <span title={fullTime(schedule.next_run_at)}>
                {dueText(schedule.next_run_at, schedule.timezone)}
              </span>{' '}
              ({untilText(schedule.next_run_at)})
            </>
          ) : (
            'Not scheduled while paused'
          )}
          {schedule.last_run_at && (
            <>
              {' '}
              · last due{' '}
              <span title={fullTime(schedule.last_run_at)}>{relativeTime(schedule.last_run_at)}</span>
            </>
          )}
        </p>
        {outcome && (
          <p className="flex items-start gap-2 text-xs text-slate-600" data-testid="schedule-outcome">
            <Badge tone={outcome.tone} className="shrink-0">
              {outcome.label}
            </Badge>
            {schedule.last_message && <span className="min-w-0 break-words">{schedule.last_message}</span>}
          </p>
        )}
      </div>
      {canToggle || canDelete ? (
        <div className="flex shrink-0 items-center gap-0.5">
          {canToggle && (
            <IconButton
              icon={schedule.enabled ? Pause : Play}
              label={
                schedule.enabled
                  ? `Pause ${schedule.suite_name ?? 'schedule'}`
                  : `Resume ${schedule.suite_name ?? 'schedule'}`
              }
              onClick={onToggle}
              disabled={toggling}
            />
          )}
          {canDelete && (
            <IconButton
              icon={Trash2}
              label={`Delete schedule of ${schedule.suite_name ?? 'suite'}`}
              onClick={onDelete}
            />
          )}
        </div>
      ) : null}
    </li>
  );
}

/**
 * The project's schedules: a saved suite on an environment at a preset's times (hourly, nightly,
 * weekly) or a cron expression's, in a time zone; each with its next due time and what came of the last.
 */
export function SchedulesPanel({ project }: { project: Project }) {
  const schedules = useSchedules(project.id);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Schedule | null>(null);
  const update = useUpdateSchedule(project.id);
  const remove = useDeleteSchedule(project.id);
  const canAdd = useCan('POST /api/projects/:id/schedules');

  const onToggle = (schedule: Schedule) =>
    update.mutate(
      { id: schedule.id, body: { enabled: !schedule.enabled } },
      {
        onSuccess: (saved) => toast.success(saved.enabled ? 'Schedule resumed' : 'Schedule paused'),
        onError: (error) => toast.error(errorText(error, 'The schedule could not be changed')),
      },
    );

  const onDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        setDeleting(null);
        toast.success('Schedule deleted');
      },
      onError: (error) => {
        setDeleting(null);
        toast.error(errorText(error, 'The schedule could not be deleted'));
      },
    });
  };

  return (
    <Panel
      title="Schedules"
      icon={CalendarClock}
      subtitle="Saved suites run on their own"
      testId="schedules-panel"
      aside={
        canAdd &&
        !adding &&
        schedules.data && (
          <SmallButton icon={Plus} onClick={() => setAdding(true)}>
            Add schedule
          </SmallButton>
        )
      }
    >
      {schedules.isPending ? (
        <div className="flex justify-center py-6 text-indigo-600">
          <Spinner label="Loading schedules" />
        </div>
      ) : schedules.isError ? (
        <p className="text-sm text-red-700" role="alert">
          {errorText(schedules.error, 'The schedules could not be loaded')}
        </p>
      ) : (
        <div className="space-y-4">
          {adding && <AddScheduleForm project={project} onDone={() => setAdding(false)} />}
          {schedules.data.length === 0 ? (
            !adding && (
              <EmptyState
                icon={CalendarClock}
                title="No schedules"
                hint="Run a saved suite every hour, every night or every week, on the environment you choose."
              />
            )
          ) : (
            <ul className="divide-y divide-slate-100">
              {schedules.data.map((schedule) => (
                <ScheduleRow
                  key={schedule.id}
                  schedule={schedule}
                  toggling={update.isPending}
                  onToggle={() => onToggle(schedule)}
                  onDelete={() => setDeleting(schedule)}
                />
              ))}
            </ul>
          )}
        </div>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this schedule?"
        description="The suite stops running on its own; its past runs stay listed."
        confirmLabel="Delete schedule"
        pending={remove.isPending}
        onConfirm={onDelete}
        onClose={() => setDeleting(null)}
      />
    </Panel>
  );
}
