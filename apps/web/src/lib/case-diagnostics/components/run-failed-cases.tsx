import { Badge } from '../../../components/badge';
import { Spinner } from '../../../components/spinner';
import { errorText } from '../../api-error';
import { useRunResults } from '../api/get-run-results';
import { diagnosedCases } from '../model/diagnosed-cases';
import { CaseDiagnosticsView } from './case-diagnostics-view';

/**
 * A run's failed and flaky cases, each with why it failed, for screens that list runs without their
 * stored results (the project's runs, the Automation screen after a run): the run is read when this
 * is mounted, and again when `version` changes.
 */
export function RunFailedCases({
  runId,
  version,
  empty,
}: {
  runId: string;
  version: string;
  empty?: string;
}) {
  const run = useRunResults(runId, version);
  if (run.isPending) {
    return (
      <div className="flex justify-center py-3 text-indigo-600">
        <Spinner className="size-5" label="Loading the failed cases" />
      </div>
    );
  }
  if (run.isError) {
    return (
      <p className="text-xs text-red-700" role="alert">
        {errorText(run.error, 'The failed cases could not be loaded')}
      </p>
    );
  }
  const cases = diagnosedCases(run.data.test_results);
  if (cases.length === 0) {
    return <p className="text-xs text-slate-600">{empty ?? 'No case of this run failed.'}</p>;
  }
  return (
    <ul className="divide-y divide-slate-100" data-testid="run-failed-cases">
      {cases.map((result) => (
        <li
          key={result.id}
          className="py-3 first:pt-0 last:pb-0"
          data-testid="failed-case"
          data-name={result.test_case_name}
        >
          <div className="mb-2 flex flex-wrap items-center gap-2">
            <h3 className="min-w-0 flex-1 basis-40 text-sm font-semibold break-words text-slate-900">
              {result.test_case_name}
            </h3>
            <Badge tone={result.status === 'flaky' ? 'amber' : 'red'}>
              {result.status === 'flaky' ? 'Flaky' : 'Failed'}
            </Badge>
          </div>
          <CaseDiagnosticsView runId={runId} result={result} />
        </li>
      ))}
    </ul>
  );
}
