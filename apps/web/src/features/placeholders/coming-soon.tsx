import type { LucideIcon } from 'lucide-react';
import { Construction } from 'lucide-react';

/** docs/PRODUCT.md#placeholder-screens: screens not built yet say 'Coming Soon' / 'This feature is under development.' */
export function ComingSoon({ screen, icon: Icon = Construction }: { screen?: string; icon?: LucideIcon }) {
  return (
    <div
      className="mx-auto flex max-w-xl flex-col items-center py-16 text-center sm:py-24"
      data-testid="coming-soon"
    >
      <span className="flex size-14 items-center justify-center rounded-2xl bg-indigo-50 text-indigo-600 ring-1 ring-indigo-100">
        <Icon className="size-6" aria-hidden />
      </span>
      {screen && <p className="mt-6 text-sm font-medium text-indigo-600">{screen}</p>}
      <h1 className={`${screen ? 'mt-2' : 'mt-6'} text-2xl font-semibold tracking-tight text-slate-900`}>
        Coming Soon
      </h1>
      <p className="mt-3 text-slate-500">This feature is under development.</p>
    </div>
  );
}
