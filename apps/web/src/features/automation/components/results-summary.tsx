import { BarChart3 } from 'lucide-react';
import { Panel } from '../../../components/panel';
import { cn } from '../../../lib/cn';
import { formatDuration, type ResultsSummary as Summary } from '../model/results';

function Stat({
  label,
  value,
  tone,
  testId,
}: {
  label: string;
  value: string;
  tone: string;
  testId: string;
}) {
  return (
    <div className="rounded-xl bg-slate-50 px-3 py-3 ring-1 ring-slate-100 ring-inset">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className={cn('mt-1 text-xl font-semibold tabular-nums', tone)} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** Spec §2 right column: passed, failed, total and time of the last run. */
export function ResultsSummary({ summary }: { summary: Summary }) {
  const rate = summary.total > 0 ? Math.round((summary.passed / summary.total) * 100) : null;
  return (
    <Panel title="Results Summary" icon={BarChart3} testId="results-summary">
      <dl className="grid grid-cols-2 gap-3">
        <Stat label="Passed" value={String(summary.passed)} tone="text-emerald-700" testId="summary-passed" />
        <Stat label="Failed" value={String(summary.failed)} tone="text-red-600" testId="summary-failed" />
        <Stat label="Total" value={String(summary.total)} tone="text-slate-900" testId="summary-total" />
        <Stat
          label="Time"
          value={summary.total > 0 ? formatDuration(summary.executionTime) : '—'}
          tone="text-slate-900"
          testId="summary-time"
        />
      </dl>
      <div className="mt-4">
        <div className="flex items-baseline justify-between text-xs">
          <span className="text-slate-500">Pass rate</span>
          <span className="font-medium text-slate-700 tabular-nums">{rate === null ? '—' : `${rate}%`}</span>
        </div>
        <div className="mt-1.5 flex h-2 overflow-hidden rounded-full bg-slate-100">
          {summary.total > 0 && (
            <>
              <div
                className="bg-emerald-500"
                style={{ width: `${(summary.passed / summary.total) * 100}%` }}
              />
              <div className="bg-red-500" style={{ width: `${(summary.failed / summary.total) * 100}%` }} />
            </>
          )}
        </div>
      </div>
    </Panel>
  );
}
