import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

/** A full-width alert above a screen's content (announced: role="alert"). */
export function Banner({
  tone,
  icon: Icon,
  children,
  testId,
}: {
  tone: 'warning' | 'error';
  icon: LucideIcon;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div
      role="alert"
      data-testid={testId}
      className={cn(
        'flex items-center gap-3 rounded-xl border px-4 py-3 text-sm font-medium',
        tone === 'warning'
          ? 'border-amber-200 bg-amber-50 text-amber-900'
          : 'border-red-200 bg-red-50 text-red-800',
      )}
    >
      <Icon className="size-5 shrink-0" aria-hidden />
      <span>{children}</span>
    </div>
  );
}
