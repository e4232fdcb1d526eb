import { CheckCircle2, ClipboardList, Clock, XCircle } from 'lucide-react';
import { EmptyState } from '../../../components/empty-state';
import { Panel } from '../../../components/panel';
import { formatDuration, type TestResultItem } from '../model/results';

/** docs/PRODUCT.md#results-and-export: each test's pass/fail, time and error. */
export function TestResultsList({ results }: { results: readonly TestResultItem[] }) {
  return (
    <Panel
      title="Test Results"
      icon={ClipboardList}
      subtitle={results.length ? `${results.length} finished` : undefined}
      testId="test-results"
    >
      {results.length === 0 ? (
        <EmptyState icon={ClipboardList} title="No results yet" hint="Each test's outcome appears here." />
      ) : (
        <ul className="-mr-2 max-h-96 space-y-2 overflow-y-auto pr-2">
          {results.map((result) => {
            const passed = result.status === 'passed';
            return (
              <li
                key={result.testName}
                className={
                  passed
                    ? 'rounded-xl border border-emerald-200 bg-emerald-50/50 px-3 py-2.5'
                    : 'rounded-xl border border-red-200 bg-red-50/50 px-3 py-2.5'
                }
                data-testid="test-result"
                data-status={result.status}
              >
                <div className="flex items-start gap-2">
                  {passed ? (
                    <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden />
                  ) : (
                    <XCircle className="mt-0.5 size-4 shrink-0 text-red-600" aria-hidden />
                  )}
                  <span className="min-w-0 flex-1 text-sm font-medium break-words text-slate-900">
                    {result.testName}
                  </span>
                  <span className="flex shrink-0 items-center gap-1 text-xs text-slate-500 tabular-nums">
                    <Clock className="size-3" aria-hidden />
                    {formatDuration(result.executionTime)}
                  </span>
                </div>
                <p className="mt-1 pl-6 text-xs font-semibold tracking-wide uppercase">
                  <span className={passed ? 'text-emerald-700' : 'text-red-700'}>
                    {passed ? 'Passed' : 'Failed'}
                  </span>
                </p>
                {result.error && (
                  <p className="mt-1 pl-6 text-xs break-words text-red-700" data-testid="test-result-error">
                    {result.error}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}
