import type { ModelUsage } from '@argus/protocol';
import { BarChart3, Cpu, Sparkles } from 'lucide-react';
import { Fragment } from 'react';
import { Panel } from '../../../components/panel';
import { cn } from '../../../lib/cn';
import { formatDuration, type ResultsSummary as Summary } from '../model/results';
import { formatTokenSplit, isZeroUsage, runModelLine } from '../model/usage';

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

/**
 * Which engine ran the steps ('built-in (…) for step-language lines; LLM (…) for free-form steps…' is
 * shown one part a line) and what the run's model calls cost.
 */
function RunEngine({
  engine,
  usage,
  cachedSteps,
}: {
  engine: string;
  usage: ModelUsage | null;
  cachedSteps: number;
}) {
  const modelLine = runModelLine(engine, usage, cachedSteps);
  const parts = engine.split('; ');
  return (
    <div
      className="mt-4 space-y-2 rounded-lg bg-slate-50 px-3 py-2.5 text-xs text-slate-600 ring-1 ring-slate-200 ring-inset"
      data-testid="run-engine-info"
    >
      <div className="flex items-start gap-2" data-testid="run-engine">
        <Cpu className="mt-0.5 size-3.5 shrink-0 text-slate-500" aria-hidden />
        <p className="min-w-0 break-words">
          Run by:{' '}
          {parts.map((part, index) => (
            <Fragment key={part}>
              {index > 0 && ' '}
              <span className={cn('font-semibold text-slate-800', index > 0 && 'block')}>
                {part}
                {index < parts.length - 1 ? ';' : ''}
              </span>
            </Fragment>
          ))}
        </p>
      </div>
      {modelLine && (
        <div className="flex items-start gap-2" data-testid="run-usage">
          <Sparkles className="mt-0.5 size-3.5 shrink-0 text-indigo-500" aria-hidden />
          <p
            className="min-w-0 break-words text-slate-700 tabular-nums"
            title={usage && !isZeroUsage(usage) ? formatTokenSplit(usage) : undefined}
          >
            {modelLine}
          </p>
        </div>
      )}
    </div>
  );
}

export interface ResultsSummaryProps {
  summary: Summary;
  /** Which engine ran the last run's steps, when the server named it. */
  runEngine?: string | null;
  /** The last run's model calls, once it completed. */
  runUsage?: ModelUsage | null;
  /** Steps of the log replayed from the cache (for '0 model calls (all replayed from cache)'). */
  cachedSteps?: number;
}

/**
 * The right column (docs/PRODUCT.md#results-and-export): passed, failed, total and time of the last
 * run (and flaky, when a test passed only on a retry: not a pass in the pass rate), and which engine ran it.
 */
export function ResultsSummary({
  summary,
  runEngine = null,
  runUsage = null,
  cachedSteps = 0,
}: ResultsSummaryProps) {
  const rate = summary.total > 0 ? Math.round((summary.passed / summary.total) * 100) : null;
  return (
    <Panel title="Results Summary" icon={BarChart3} testId="results-summary">
      <dl className="grid grid-cols-2 gap-3">
        <Stat label="Passed" value={String(summary.passed)} tone="text-emerald-700" testId="summary-passed" />
        <Stat label="Failed" value={String(summary.failed)} tone="text-red-600" testId="summary-failed" />
        {summary.flaky > 0 && (
          <Stat
            label="Flaky (passed on a retry)"
            value={String(summary.flaky)}
            tone="text-amber-700"
            testId="summary-flaky"
          />
        )}
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
              <div className="bg-amber-400" style={{ width: `${(summary.flaky / summary.total) * 100}%` }} />
              <div className="bg-red-500" style={{ width: `${(summary.failed / summary.total) * 100}%` }} />
            </>
          )}
        </div>
      </div>
      {runEngine && <RunEngine engine={runEngine} usage={runUsage} cachedSteps={cachedSteps} />}
    </Panel>
  );
}
