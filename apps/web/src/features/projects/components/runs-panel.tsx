import { Activity } from 'lucide-react';
import { Badge } from '../../../components/badge';
import { EmptyState } from '../../../components/empty-state';
import { Panel } from '../../../components/panel';
import { Spinner } from '../../../components/spinner';
import { errorText } from '../../../lib/api-error';
import { useProjectRuns } from '../api/list-runs';
import { fullTime, relativeTime } from '../model/format';
import { runStatus, runSuiteLabel, runTime, triggerLabel } from '../model/runs';

/** The project's recent runs: status, environment, suite and version, passed and failed, when. */
export function RunsPanel({ projectId }: { projectId: string }) {
  const runs = useProjectRuns(projectId);
  const now = Date.now();
  return (
    <Panel
      title="Recent runs"
      icon={Activity}
      subtitle="Latest first, with their environment"
      testId="runs-panel"
    >
      {runs.isPending ? (
        <div className="flex justify-center py-6 text-indigo-600">
          <Spinner label="Loading runs" />
        </div>
      ) : runs.isError ? (
        <p className="text-sm text-red-700" role="alert">
          {errorText(runs.error, 'The runs could not be loaded')}
        </p>
      ) : runs.data.length === 0 ? (
        <EmptyState
          icon={Activity}
          title="No runs yet"
          hint="Runs of this project's suites show here, with the environment they ran on."
        />
      ) : (
        <ul className="divide-y divide-slate-100">
          {runs.data.map((run) => {
            const status = runStatus(run);
            const when = runTime(run);
            return (
              <li
                key={run.id}
                className="flex items-start gap-3 py-3 first:pt-0 last:pb-0"
                data-testid="project-run"
              >
                <Badge tone={status.tone} className="mt-0.5 shrink-0">
                  {status.label}
                </Badge>
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium text-slate-900">{runSuiteLabel(run)}</p>
                  <p className="text-xs text-slate-600">
                    {run.environment_name ?? 'No environment'} ·{' '}
                    <span title={fullTime(when)}>{relativeTime(when, now)}</span>
                    {triggerLabel(run.trigger) && <> · {triggerLabel(run.trigger)}</>}
                  </p>
                </div>
                <p className="shrink-0 text-right text-xs tabular-nums">
                  <span className="block font-semibold text-emerald-700">{run.passed_tests} passed</span>
                  {run.flaky_tests > 0 && (
                    <span className="block font-semibold text-amber-700">{run.flaky_tests} flaky</span>
                  )}
                  <span
                    className={
                      run.failed_tests > 0 ? 'block font-semibold text-red-700' : 'block text-slate-500'
                    }
                  >
                    {run.failed_tests} failed
                  </span>
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}
