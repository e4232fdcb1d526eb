import type { ClauseCoverage } from '@argus/protocol';
import { AlertTriangle, CheckCircle2 } from 'lucide-react';

/**
 * Command mode: each clause of the command with the tests that cover it, or why none does, so a part
 * of the command that went untested is named on the screen rather than dropped (docs/PRODUCT.md#test-cases).
 */
export function CommandCoverage({ coverage }: { coverage: readonly ClauseCoverage[] }) {
  if (coverage.length === 0) return null;
  const covered = coverage.filter((entry) => entry.tests.length > 0).length;
  return (
    <section
      className="mb-4 rounded-lg bg-white px-3 py-2 text-xs ring-1 ring-slate-200 ring-inset"
      aria-label="Command coverage"
      data-testid="command-coverage"
    >
      <h3 className="mb-1 font-semibold text-slate-800">
        Your command: {covered} of {coverage.length} part{coverage.length === 1 ? '' : 's'} covered
      </h3>
      <ul className="space-y-1.5">
        {coverage.map((entry, index) => (
          <li
            // Clauses may repeat; their order is their identity.
            key={index}
            className="flex items-start gap-2"
            data-testid="command-clause"
            data-covered={entry.tests.length > 0}
          >
            {entry.tests.length > 0 ? (
              <CheckCircle2 className="mt-0.5 size-3.5 shrink-0 text-emerald-600" aria-label="Covered" />
            ) : (
              <AlertTriangle className="mt-0.5 size-3.5 shrink-0 text-amber-600" aria-label="Not covered" />
            )}
            <span className="min-w-0 break-words text-slate-700">
              <span className="font-medium text-slate-900">“{entry.clause}”</span>
              {entry.tests.length > 0 ? (
                <> — {entry.tests.join(', ')}</>
              ) : (
                <span className="block text-amber-800">{entry.reason ?? 'No test covers it.'}</span>
              )}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
