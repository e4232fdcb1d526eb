import type { ProjectRun } from '@argus/protocol';
import { Activity, ChevronDown } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/badge';
import { EmptyState } from '../../../components/empty-state';
import { Panel } from '../../../components/panel';
import { Spinner } from '../../../components/spinner';
import { errorText } from '../../../lib/api-error';
import { RunFailedCases } from '../../../lib/case-diagnostics';
import { cn } from '../../../lib/cn';
import { runPagePath } from '../../../lib/run-links';
import { useProjectRuns } from '../api/list-runs';
import { fullTime, relativeTime } from '../model/format';
import { runStatus, runSuiteLabel, runTime, triggerLabel } from '../model/runs';

/**
 * A run's link to its page, and for a run with failed or flaky cases the button that opens them
 * here, each with why it failed and its trace (loaded when opened).
 */
function RunCasesDisclosure({ run }: { run: ProjectRun }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const hasFailures = run.failed_tests > 0 || run.flaky_tests > 0;
  return (
    <div className="mt-1">
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
        <Link
          to={runPagePath(run.id)}
          className="font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          Open run<span className="sr-only"> {runSuiteLabel(run)}</span>
        </Link>
        {hasFailures && (
          <button
            type="button"
            onClick={() => setOpen((value) => !value)}
            aria-expanded={open}
            aria-controls={id}
            className="inline-flex items-center gap-1 font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
            data-testid="project-run-failures"
          >
            <ChevronDown className={cn('size-3.5 transition-transform', !open && '-rotate-90')} aria-hidden />
            Why cases failed
          </button>
        )}
      </p>
      {open && (
        <div id={id} className="mt-3">
          <RunFailedCases runId={run.id} version={run.completed_at ?? run.status} />
        </div>
      )}
    </div>
  );
}

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
              <li key={run.id} className="py-3 first:pt-0 last:pb-0" data-testid="project-run">
                <div className="flex items-start gap-3">
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
                </div>
                <RunCasesDisclosure run={run} />
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}
