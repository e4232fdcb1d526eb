import type { Weakening } from '@argus/protocol';
import { TriangleAlert } from 'lucide-react';
import { WEAKENING_TEXT } from '../model/review';

/**
 * 'Weakens an assertion': each way the repair checks less than the case did, with the check before and
 * after, so a reviewer sees what a bug could now slip past.
 */
export function WeakeningList({ weakenings }: { weakenings: readonly Weakening[] }) {
  return (
    <div
      className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
      data-testid="repair-weakenings"
    >
      <p className="flex items-center gap-1.5 font-semibold">
        <TriangleAlert className="size-4 shrink-0" aria-hidden />
        Weakens an assertion
      </p>
      <p className="mt-1 text-xs">
        The repaired case passes, but it checks less than the case did: a bug could pass it too.
      </p>
      <ul className="mt-2 space-y-2">
        {weakenings.map((weakening, index) => (
          <li key={index} className="text-xs">
            <span className="font-semibold">{WEAKENING_TEXT[weakening.kind]}:</span> {weakening.detail}
            {(weakening.before !== null || weakening.after !== null) && (
              <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 font-mono">
                <dt>Before</dt>
                <dd className="break-words">{weakening.before ?? '(none)'}</dd>
                <dt>After</dt>
                <dd className="break-words">{weakening.after ?? '(removed)'}</dd>
              </dl>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
