import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

/** The card atop a work screen: its icon, its title (the page's h1) with a line under it, and what sits beside. */
export function ScreenHeader({
  icon: Icon,
  title,
  description,
  titleClassName,
  aside,
  children,
}: {
  icon: LucideIcon;
  title: string;
  /** The line under the title, e.g. a live status paragraph. */
  description: ReactNode;
  /** Added to the title block's classes, e.g. a flex basis so the aside wraps under it on narrow screens. */
  titleClassName?: string;
  /** Right of the title: badges, the connection indicator. */
  aside: ReactNode;
  /** Below the title row, inside the card: e.g. a toolbar. */
  children?: ReactNode;
}) {
  return (
    <section className="rounded-2xl border border-slate-200 bg-white px-5 py-5 shadow-xs sm:px-6">
      <div className="flex flex-wrap items-start gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-indigo-600 text-white shadow-sm shadow-indigo-600/20">
          <Icon className="size-5" aria-hidden />
        </span>
        <div className={cn('min-w-0 flex-1', titleClassName)}>
          <h1 className="text-xl font-semibold tracking-tight text-slate-900">{title}</h1>
          {description}
        </div>
        {aside}
      </div>
      {children}
    </section>
  );
}
