import { AlertTriangle, CheckCircle2, ClipboardList, Clock, XCircle } from 'lucide-react';
import { EmptyState } from '../../../components/empty-state';
import { Panel } from '../../../components/panel';
import { formatDuration, resultLabel, type TestResultItem } from '../model/results';

/** Each outcome's look: a flaky test (passed on a retry) is amber, neither a pass nor a failure. */
const LOOKS = {
  passed: {
    box: 'border-emerald-200 bg-emerald-50/50',
    text: 'text-emerald-700',
    Icon: CheckCircle2,
    icon: 'text-emerald-600',
  },
  flaky: {
    box: 'border-amber-200 bg-amber-50/60',
    text: 'text-amber-800',
    Icon: AlertTriangle,
    icon: 'text-amber-600',
  },
  failed: { box: 'border-red-200 bg-red-50/50', text: 'text-red-700', Icon: XCircle, icon: 'text-red-600' },
} as const;

/** docs/PRODUCT.md#results-and-export: each test's pass/fail (or flaky, docs/HISTORY.md#retries), time and error. */
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
            const look = LOOKS[result.status];
            return (
              <li
                key={result.testName}
                className={`rounded-xl border px-3 py-2.5 ${look.box}`}
                data-testid="test-result"
                data-status={result.status}
              >
                <div className="flex items-start gap-2">
                  <look.Icon className={`mt-0.5 size-4 shrink-0 ${look.icon}`} aria-hidden />
                  <span className="min-w-0 flex-1 text-sm font-medium break-words text-slate-900">
                    {result.testName}
                  </span>
                  <span className="flex shrink-0 items-center gap-1 text-xs text-slate-500 tabular-nums">
                    <Clock className="size-3" aria-hidden />
                    {formatDuration(result.executionTime)}
                  </span>
                </div>
                <p className="mt-1 pl-6 text-xs font-semibold tracking-wide" data-testid="test-result-label">
                  <span className={result.status === 'flaky' ? look.text : `uppercase ${look.text}`}>
                    {resultLabel(result)}
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
