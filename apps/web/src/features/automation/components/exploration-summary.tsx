import type { ExplorationSummary } from '@argus/protocol';
import { Compass } from 'lucide-react';

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

const WHY: Record<ExplorationSummary['ended'], string> = {
  complete: 'everything found was tried',
  actions: 'the action budget ran out',
  time: 'the time limit ran out',
  stopped: 'stopped',
};

/**
 * What the generation explored by acting on the app, and what its budget left out: a behaviour with
 * no test is either named here as not tried, or was tried and did nothing checkable
 * (docs/ARCHITECTURE.md#behaviour-exploration).
 */
export function ExplorationSummaryNote({ exploration: e }: { exploration: ExplorationSummary }) {
  return (
    <section
      className="mb-4 rounded-lg bg-white px-3 py-2 text-xs text-slate-700 ring-1 ring-slate-200 ring-inset"
      aria-label="Exploration"
      data-testid="exploration-summary"
      data-ended={e.ended}
    >
      <p className="flex items-start gap-2">
        <Compass className="mt-0.5 size-3.5 shrink-0 text-slate-500" aria-hidden />
        <span className="min-w-0 break-words">
          Explored {e.actions} action{e.actions === 1 ? '' : 's'} (budget {e.maxActions}) in {e.states} state
          {e.states === 1 ? '' : 's'} in {seconds(e.elapsedMs)}; {e.behaviours} behaviour
          {e.behaviours === 1 ? '' : 's'} held in every replay. Page opens in {e.latencyMs} ms, so the time
          limit was {seconds(e.timeLimitMs)}; {WHY[e.ended]}.
        </span>
      </p>
      {e.checked && <CheckedNote checked={e.checked} />}
      {e.skipped.length > 0 && (
        <details className="mt-1 pl-5.5">
          <summary className="cursor-pointer font-medium text-amber-800">
            Not tried for lack of budget: {e.skipped.length}
            {e.skipped.length === 20 ? '+' : ''}
          </summary>
          <ul className="mt-1 list-disc space-y-0.5 pl-4" data-testid="exploration-skipped">
            {e.skipped.map((what) => (
              <li key={what}>{what}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

/**
 * How the written cases were checked before they were handed out (run as runs run them, in parallel
 * on fresh sign-ins), and the ones dropped for failing on the app as it is, each with why.
 */
function CheckedNote({ checked }: { checked: NonNullable<ExplorationSummary['checked']> }) {
  const { runs, parallelism, dropped, defects, unchecked } = checked;
  const how =
    `Every case was run ${runs} time${runs === 1 ? '' : 's'}, ${parallelism} at once on fresh sign-ins, before it was handed out` +
    (unchecked > 0 ? ` (${unchecked} with free-form steps were not)` : '');
  return (
    <div className="mt-1 pl-5.5" data-testid="exploration-checked">
      {dropped.length === 0 ? (
        <p>{how}; none was dropped.</p>
      ) : (
        <details>
          <summary className="cursor-pointer font-medium text-amber-800">
            {how}; dropped {dropped.length} that failed
          </summary>
          <CaseList cases={dropped} testId="exploration-dropped" />
        </details>
      )}
      {defects.length > 0 && (
        <details>
          <summary className="cursor-pointer font-medium text-red-800">
            Kept {defects.length} that fail{defects.length === 1 ? 's' : ''} on every run at a page check: a
            defect of the app
          </summary>
          <CaseList cases={defects} testId="exploration-defects" />
        </details>
      )}
    </div>
  );
}

function CaseList({ cases, testId }: { cases: { test: string; reason: string }[]; testId: string }) {
  return (
    <ul className="mt-1 list-disc space-y-0.5 pl-4" data-testid={testId}>
      {cases.map((d) => (
        <li key={d.test}>
          <span className="font-medium">{d.test}</span>: {d.reason}
        </li>
      ))}
    </ul>
  );
}
