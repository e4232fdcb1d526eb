import { CheckCircle2, Circle, XCircle } from 'lucide-react';
import { cn } from '../../cn';
import { type CaseStep, type FindingTab, findingTab } from '../model/case-steps';

/** The case's steps, the failing one marked, beside its console and network. */
export function CaseStepsList({
  steps,
  failingStep,
  onShowFinding,
}: {
  steps: readonly CaseStep[];
  failingStep: number | null;
  /** A page-health finding's step asks for its entries in the console or network beside it. */
  onShowFinding?: (step: CaseStep, tab: FindingTab) => void;
}) {
  if (steps.length === 0) return <p className="text-xs text-slate-600">No steps were recorded.</p>;
  return (
    <ol className="space-y-1.5" aria-label="Steps" data-testid="case-steps">
      {steps.map((step) => {
        const failing = step.index === failingStep || step.status === 'error';
        const Icon = step.status === 'success' ? CheckCircle2 : step.status === 'error' ? XCircle : Circle;
        return (
          <li
            key={step.index}
            className={cn('flex items-start gap-2 rounded-lg px-2 py-1.5 text-xs', failing && 'bg-red-50')}
            data-testid="case-step"
            data-status={step.status}
          >
            <Icon
              className={cn(
                'mt-0.5 size-3.5 shrink-0',
                step.status === 'success' ? 'text-emerald-600' : failing ? 'text-red-600' : 'text-slate-400',
              )}
              aria-hidden
            />
            <span className="min-w-0 flex-1">
              <span className="block break-words text-slate-800">
                <span className="font-semibold tabular-nums">{step.index + 1}.</span> {step.line}
              </span>
              {step.error && <span className="mt-0.5 block break-words text-red-700">{step.error}</span>}
              {onShowFinding && <FindingLink step={step} onShow={onShowFinding} />}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** 'Show in Console' under a step a page-health check failed: its entries, filtered and in view. */
function FindingLink({
  step,
  onShow,
}: {
  step: CaseStep;
  onShow: (step: CaseStep, tab: FindingTab) => void;
}) {
  const tab = findingTab(step.error);
  if (!tab) return null;
  return (
    <button
      type="button"
      onClick={() => onShow(step, tab)}
      className="mt-1 rounded font-semibold text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
      data-testid="show-finding"
    >
      Show in {tab === 'console' ? 'Console' : 'Network'}
    </button>
  );
}
