import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

/** A titled card, a screen's building block. */
export function Panel({
  title,
  icon: Icon,
  aside,
  subtitle,
  children,
  className,
  bodyClassName,
  testId,
}: {
  title: string;
  icon: LucideIcon;
  aside?: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  className?: string;
  bodyClassName?: string;
  testId?: string;
}) {
  return (
    <section
      className={cn('min-w-0 rounded-2xl border border-slate-200 bg-white shadow-xs', className)}
      aria-label={title}
      data-testid={testId}
    >
      <header className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-slate-100 px-5 py-4">
        <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600 ring-1 ring-indigo-100">
          <Icon className="size-4" aria-hidden />
        </span>
        <div className="min-w-0 flex-1 basis-36">
          <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
          {subtitle && <p className="truncate text-xs text-slate-500">{subtitle}</p>}
        </div>
        {aside && <div className="ml-auto flex shrink-0 flex-wrap items-center gap-2">{aside}</div>}
      </header>
      <div className={bodyClassName ?? 'p-5'}>{children}</div>
    </section>
  );
}
