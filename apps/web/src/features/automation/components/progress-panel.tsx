import { Activity, Loader2 } from 'lucide-react';
import { Panel } from '../../../components/panel';
import { ProgressBar } from '../../../components/progress-bar';
import type { ExecutionStatus, StatusTone } from '../model/execution';

export interface ProgressPanelProps {
  status: ExecutionStatus;
  /** The bar is green only for a run where every test passed, amber for one with failures. */
  tone: StatusTone;
  current: number;
  total: number;
  finished: number;
  activeTests: readonly string[];
  /** What the run says before its tests act (e.g. 'Waiting for a free browser: 2 ahead'). */
  notice?: string | null;
  /** A run was asked for and has not started yet (it signs in to a project first): its notice shows. */
  starting?: boolean;
}

/** Progress, current of total from test_progress, as a bar with the tests running now (docs/PRODUCT.md#execution-states). */
export function ProgressPanel({
  status,
  tone,
  current,
  total,
  finished,
  activeTests,
  notice,
  starting = false,
}: ProgressPanelProps) {
  const percent = total > 0 ? Math.min(100, Math.round((current / total) * 100)) : 0;
  const bar =
    tone === 'error'
      ? 'bg-red-500'
      : tone === 'warning'
        ? 'bg-amber-500'
        : tone === 'success'
          ? 'bg-emerald-500'
          : 'bg-indigo-600';
  return (
    <Panel title="Execution Progress" icon={Activity} testId="progress-panel">
      <div className="flex items-baseline justify-between text-sm">
        <span className="font-medium text-slate-700" data-testid="progress-label">
          {total > 0 ? `Test ${current} of ${total}` : 'No tests running'}
        </span>
        <span className="text-slate-500 tabular-nums">{percent}%</span>
      </div>
      <ProgressBar
        className="mt-2"
        label="Test progress"
        value={current}
        max={total}
        percent={percent}
        barClassName={bar}
        animated
        testId="progress-bar"
      />
      <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-xs text-slate-500">
        <span>{total > 0 ? `${finished} of ${total} finished` : 'Run tests to see progress here.'}</span>
      </div>
      {(status === 'running' || starting) && notice && (
        <p className="mt-3 text-xs text-indigo-700" role="status" data-testid="run-notice">
          {notice}
        </p>
      )}
      {status === 'running' && activeTests.length > 0 && (
        <ul className="mt-3 space-y-1.5">
          {activeTests.map((name) => (
            <li
              key={name}
              className="flex items-center gap-2 rounded-lg bg-indigo-50 px-3 py-1.5 text-xs text-indigo-800"
            >
              <Loader2 className="size-3.5 shrink-0 animate-spin" aria-hidden />
              <span className="min-w-0 truncate">{name}</span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
