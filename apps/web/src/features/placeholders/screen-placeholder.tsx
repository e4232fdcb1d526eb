import type { LucideIcon } from 'lucide-react';

/** A screen whose engine is not built yet: its title and an honest sentence, nothing pretending to work. */
export function ScreenPlaceholder({
  title,
  description,
  icon: Icon,
}: {
  title: string;
  description: string;
  icon: LucideIcon;
}) {
  return (
    <div className="mx-auto max-w-5xl" data-testid="screen-placeholder">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
      <div className="mt-6 flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-16 text-center">
        <span className="flex size-12 items-center justify-center rounded-xl bg-slate-100 text-slate-500">
          <Icon className="size-6" aria-hidden />
        </span>
        <p className="mt-4 max-w-md text-slate-600">{description}</p>
      </div>
    </div>
  );
}
