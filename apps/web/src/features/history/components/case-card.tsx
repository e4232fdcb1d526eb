import type { CaseHistory, StoredTestResult } from '@argus/protocol';
import { useRef } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../../components/spinner';
import { errorText } from '../../../lib/api-error';
import { CaseDiagnosticsView, isDiagnosed } from '../../../lib/case-diagnostics';
import { cn } from '../../../lib/cn';
import { useCaseHistory } from '../api/get-case-history';
import { useInView } from '../hooks/use-in-view';
import { formatWhen } from '../model/format';
import { runPagePath } from '../model/links';
import { type RunCase, stripLabel, stripOrder } from '../model/run-cases';
import { CaseOutcomeBadge, ChangeBadge } from './outcome-badge';

const SQUARE: Record<CaseHistory['results'][number]['status'], string> = {
  passed: 'bg-emerald-500',
  failed: 'bg-red-600',
  flaky: 'bg-amber-400',
  skipped: 'bg-slate-300',
};

/** The case's last results as coloured squares, oldest first, each a link to its run. */
function ResultStrip({ results, runId }: { results: CaseHistory['results']; runId: string }) {
  return (
    <ol className="flex flex-wrap gap-2" aria-label="Recent results, oldest first" data-testid="case-strip">
      {stripOrder(results).map((result) => {
        const label = stripLabel(result, formatWhen);
        const current = result.run_id === runId;
        return (
          <li key={result.run_id}>
            <Link
              to={runPagePath(result.run_id)}
              aria-label={current ? `${label} (this run)` : label}
              title={label}
              aria-current={current ? 'page' : undefined}
              className={cn(
                'block size-4 rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
                SQUARE[result.status],
                current && 'ring-2 ring-slate-900 ring-offset-1',
              )}
              data-status={result.status}
            />
          </li>
        );
      })}
    </ol>
  );
}

function CaseHistoryView({ history, runId }: { history: CaseHistory; runId: string }) {
  return (
    <div className="mt-3 space-y-3">
      <div>
        <h4 className="text-xs font-semibold text-slate-700">
          Last {history.results.length} result{history.results.length === 1 ? '' : 's'}
        </h4>
        <div className="mt-1.5">
          <ResultStrip results={history.results} runId={runId} />
        </div>
      </div>
      {history.failures.length > 0 && (
        <div>
          <h4 className="text-xs font-semibold text-slate-700">Failures, grouped</h4>
          <ul className="mt-1 space-y-1" data-testid="case-failures">
            {history.failures.map((failure) => (
              <li key={failure.message} className="flex items-start gap-2 text-xs">
                <span className="shrink-0 rounded bg-red-50 px-1.5 font-semibold text-red-700 tabular-nums">
                  {failure.count}×
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block break-words text-slate-700">{failure.message}</span>
                  <Link to={runPagePath(failure.last_run_id)} className="text-indigo-700 hover:underline">
                    last seen {formatWhen(failure.last_seen)}
                  </Link>
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <p className="text-xs text-slate-600" data-testid="case-last-changed">
        {history.last_changed
          ? `Steps last changed in v${history.last_changed.version} on ${formatWhen(history.last_changed.saved_at)} by ${history.last_changed.saved_by}: ${history.last_changed.change}`
          : 'When its steps last changed is not known (not a saved suite).'}
      </p>
    </div>
  );
}

/**
 * A case of the run: result, change, why it failed (its stored `result`, when failed or flaky), and
 * its history loaded as the card nears view.
 */
export function CaseCard({
  item,
  runId,
  result,
}: {
  item: RunCase;
  runId: string;
  result?: StoredTestResult;
}) {
  const ref = useRef<HTMLLIElement>(null);
  const inView = useInView(ref);
  const history = useCaseHistory(runId, item.name, inView && item.comparison?.change !== 'removed');
  return (
    <li ref={ref} className="py-4 first:pt-0 last:pb-0" data-testid="run-case" data-name={item.name}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="min-w-0 flex-1 basis-48 text-sm font-semibold break-words text-slate-900">
          {item.name}
        </h3>
        {item.comparison && <ChangeBadge change={item.comparison.change} />}
        {item.status && <CaseOutcomeBadge outcome={item.status} />}
        {item.attempts > 1 && <span className="text-xs text-slate-600">{item.attempts} attempts</span>}
      </div>
      {result && isDiagnosed(result) && (
        <div className="mt-3">
          <CaseDiagnosticsView runId={runId} result={result} />
        </div>
      )}
      {item.comparison?.change === 'removed' ? (
        <p className="mt-2 text-xs text-slate-600">Not in this run: it was removed from the suite.</p>
      ) : history.isError ? (
        <p className="mt-2 text-xs text-red-700" role="alert">
          {errorText(history.error, 'Its history could not be loaded')}
        </p>
      ) : history.data ? (
        <CaseHistoryView history={history.data} runId={runId} />
      ) : (
        <div className="mt-2 text-indigo-600">
          <Spinner className="size-4" label={`Loading the history of ${item.name}`} />
        </div>
      )}
    </li>
  );
}
