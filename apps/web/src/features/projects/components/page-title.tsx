import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** A screen's title row, as on Settings: the icon tile, the h1 and a line under it, and actions at the right. */
export function PageTitle({
  icon: Icon,
  title,
  description,
  aside,
}: {
  icon: LucideIcon;
  title: string;
  description: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <header className="flex flex-wrap items-start gap-4">
      <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-indigo-600 text-white shadow-sm shadow-indigo-600/20">
        <Icon className="size-5" aria-hidden />
      </span>
      <div className="min-w-0 flex-1 basis-56">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        <p className="mt-1 text-sm text-slate-600">{description}</p>
      </div>
      {aside && <div className="flex shrink-0 flex-wrap items-center gap-2">{aside}</div>}
    </header>
  );
}
