import type { StoredTestResult } from '@argus/protocol';
import { ChevronDown } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { cn } from '../../cn';
import { caseSteps } from '../model/case-steps';
import { diagnosticsSummaryText } from '../model/summary';
import { CaseArtifacts } from './case-artifacts';
import { CaseStepsList } from './case-steps-list';
import { DiagnosticsPanel, type FindingFocus } from './diagnostics-panel';
import { FailureLabel } from './failure-badge';
import { SeenLine } from './seen-line';

export type DiagnosedResult = Pick<
  StoredTestResult,
  'id' | 'test_case_name' | 'status' | 'steps' | 'failure' | 'seen' | 'artifacts' | 'diagnostics'
>;

/**
 * Why a failed or flaky case failed (docs/DIAGNOSTICS.md): its label and evidence, how often the same
 * failure was seen, its traces and video; and, opened on demand (loaded then), its steps beside its
 * console and network. Side by side where the view is wide, stacked where it is narrow.
 */
export function CaseDiagnosticsView({ runId, result }: { runId: string; result: DiagnosedResult }) {
  const [open, setOpen] = useState(false);
  const [focus, setFocus] = useState<FindingFocus | null>(null);
  const panelId = useId();
  const steps = useMemo(() => caseSteps(result.steps), [result.steps]);
  const counts = diagnosticsSummaryText(result.diagnostics);
  return (
    <div className="@container min-w-0 space-y-3" data-testid="case-diagnostics" data-result-id={result.id}>
      {result.failure && <FailureLabel failure={result.failure} />}
      {result.seen && <SeenLine seen={result.seen} runId={runId} />}
      <CaseArtifacts artifacts={result.artifacts} caseName={result.test_case_name} />
      {result.diagnostics ? (
        <div>
          <button
            type="button"
            onClick={() => setOpen((value) => !value)}
            aria-expanded={open}
            aria-controls={panelId}
            className="group inline-flex items-start gap-1.5 rounded-lg text-left text-xs font-semibold text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
            data-testid="toggle-case-diagnostics"
          >
            <ChevronDown
              className={cn('size-4 shrink-0 transition-transform', !open && '-rotate-90')}
              aria-hidden
            />
            {/* One run of text, so a narrow column wraps it as a sentence. */}
            <span>
              Console and network <span className="font-normal text-slate-600">({counts})</span>
            </span>
          </button>
          {open && (
            <div id={panelId} className="mt-2 grid gap-3 @3xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
              <CaseStepsList
                steps={steps}
                failingStep={result.failure?.step_index ?? null}
                onShowFinding={(step, tab) =>
                  setFocus((last) => ({ tab, error: step.error ?? '', asked: (last?.asked ?? 0) + 1 }))
                }
              />
              <DiagnosticsPanel runId={runId} result={result} steps={steps} focus={focus} />
            </div>
          )}
        </div>
      ) : (
        <p className="text-xs text-slate-600">No console or network was recorded for this case.</p>
      )}
    </div>
  );
}
