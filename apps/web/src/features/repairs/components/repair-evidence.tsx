import type { CaseRepair } from '@argus/protocol';
import { CheckCircle2, CircleAlert } from 'lucide-react';
import { proofText } from '../model/review';

/** What a verdict rests on: the sentence, the signals, the engine and, for a proposal, its proof. */
export function RepairEvidence({ repair }: { repair: CaseRepair }) {
  const { evidence } = repair;
  const proved = evidence.proof?.status === 'passed';
  return (
    <div className="space-y-2 text-sm text-slate-700" data-testid="repair-evidence">
      <p>{evidence.summary}</p>
      {evidence.signals.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label="Signals">
          {evidence.signals.map((signal) => (
            <li
              key={signal}
              className="rounded-md bg-slate-100 px-2 py-0.5 text-xs text-slate-700 ring-1 ring-slate-200 ring-inset"
            >
              {signal}
            </li>
          ))}
        </ul>
      )}
      {repair.verdict !== 'bug' && (
        <p
          className={`flex items-center gap-1.5 text-xs font-medium ${proved ? 'text-emerald-800' : 'text-amber-800'}`}
          data-testid="repair-proof"
        >
          {proved ? (
            <CheckCircle2 className="size-4 shrink-0" aria-hidden />
          ) : (
            <CircleAlert className="size-4 shrink-0" aria-hidden />
          )}
          {proofText(repair)}
        </p>
      )}
      <p className="text-xs text-slate-600">Proposed by the {evidence.engine} engine</p>
    </div>
  );
}
