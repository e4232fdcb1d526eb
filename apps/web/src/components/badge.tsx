import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

type Tone = 'slate' | 'indigo' | 'green' | 'red' | 'orange' | 'amber';

const TONES: Record<Tone, string> = {
  slate: 'bg-slate-100 text-slate-700 ring-slate-200',
  indigo: 'bg-indigo-50 text-indigo-700 ring-indigo-200',
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  red: 'bg-red-50 text-red-700 ring-red-200',
  orange: 'bg-orange-50 text-orange-700 ring-orange-200',
  amber: 'bg-amber-50 text-amber-800 ring-amber-200',
};

/** A small rounded label in one of a few tones. */
export function Badge({
  tone = 'slate',
  children,
  className,
  ...rest
}: { tone?: Tone; children: ReactNode; className?: string } & Record<`data-${string}`, string | undefined>) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset',
        TONES[tone],
        className,
      )}
      {...rest}
    >
      {children}
    </span>
  );
}
