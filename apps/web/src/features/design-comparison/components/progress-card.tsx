import { Activity, CheckCircle2, CircleSlash, Loader2, XCircle } from 'lucide-react';
import { Panel } from '../../../components/panel';
import { ProgressBar } from '../../../components/progress-bar';
import { cn } from '../../../lib/cn';
import type { ComparisonState } from '../model/comparison-state';

/** docs/PRODUCT.md#comparison-progress: the progress card's message and percentage bar in each state. */
export function ProgressCard({ state }: { state: ComparisonState }) {
  const { status, message, progress, error } = state;
  const bar =
    status === 'failed'
      ? 'bg-red-500'
      : status === 'completed'
        ? 'bg-emerald-500'
        : status === 'stopped'
          ? 'bg-slate-400'
          : 'bg-indigo-600';
  const Icon =
    status === 'running'
      ? Loader2
      : status === 'completed'
        ? CheckCircle2
        : status === 'failed'
          ? XCircle
          : CircleSlash;
  const iconTone =
    status === 'completed'
      ? 'text-emerald-600'
      : status === 'failed'
        ? 'text-red-600'
        : status === 'running'
          ? 'text-indigo-600'
          : 'text-slate-500';
  return (
    <Panel title="Progress" icon={Activity} testId="comparison-progress">
      <div className="flex items-start gap-2.5" aria-live="polite">
        <Icon
          className={cn('mt-0.5 size-4 shrink-0', iconTone, status === 'running' && 'animate-spin')}
          aria-hidden
        />
        <p
          className="min-w-0 flex-1 text-sm font-medium text-slate-800"
          data-testid="progress-message"
          data-status={status}
        >
          {message}
        </p>
        <span className="text-sm text-slate-500 tabular-nums" data-testid="progress-percent">
          {progress}%
        </span>
      </div>
      <ProgressBar
        className="mt-3"
        label="Comparison progress"
        value={progress}
        max={100}
        percent={progress}
        barClassName={bar}
        animated
        testId="comparison-progress-bar"
      />
      {status === 'failed' && error && error !== message && (
        <p
          className="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-red-100 ring-inset"
          data-testid="comparison-error"
        >
          {error}
        </p>
      )}
    </Panel>
  );
}
