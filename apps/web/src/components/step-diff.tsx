import type { StepDiffLine } from '@argus/protocol';
import { cn } from '../lib/cn';

const OP = {
  same: { sign: ' ', said: 'Kept', className: 'text-slate-700' },
  removed: { sign: '−', said: 'Removed', className: 'bg-red-50 text-red-800' },
  added: { sign: '+', said: 'Added', className: 'bg-emerald-50 text-emerald-800' },
} as const;

/**
 * A case's steps before and after as a line diff (a repair, a regenerated case): removed lines red with
 * '−', added lines green with '+', so the change reads without colour too; each line also says so to a
 * screen reader. Lines wrap rather than scroll: a step is a sentence.
 */
export function StepDiff({
  lines,
  label = 'Step changes',
  testId,
}: {
  lines: readonly StepDiffLine[];
  label?: string;
  testId?: string;
}) {
  return (
    <ol
      aria-label={label}
      className="overflow-hidden rounded-lg border border-slate-200 bg-white font-mono text-xs leading-5"
      data-testid={testId}
    >
      {lines.map((line, index) => {
        const op = OP[line.op];
        const number = line.after ?? line.before;
        return (
          <li
            // Lines are positional: the same text may be removed and added again.
            key={index}
            className={cn('flex gap-2 px-2 py-0.5', op.className)}
            data-op={line.op}
          >
            <span className="w-6 shrink-0 text-right text-slate-600 select-none" aria-hidden>
              {number === null ? '' : number + 1}
            </span>
            <span className="w-3 shrink-0 font-semibold select-none" aria-hidden>
              {op.sign}
            </span>
            <span className="min-w-0 flex-1 break-words whitespace-pre-wrap">
              <span className="sr-only">{op.said}: </span>
              {line.line}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
