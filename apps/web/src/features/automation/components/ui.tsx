import type { LucideIcon } from 'lucide-react';
import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { cn } from '../../../lib/cn';

/** A titled card, the screen's building block. */
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

type Tone = 'slate' | 'indigo' | 'green' | 'red' | 'orange' | 'amber';

const TONES: Record<Tone, string> = {
  slate: 'bg-slate-100 text-slate-700 ring-slate-200',
  indigo: 'bg-indigo-50 text-indigo-700 ring-indigo-200',
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  red: 'bg-red-50 text-red-700 ring-red-200',
  orange: 'bg-orange-50 text-orange-700 ring-orange-200',
  amber: 'bg-amber-50 text-amber-800 ring-amber-200',
};

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

type SmallVariant = 'secondary' | 'primary' | 'danger' | 'ghost';

const SMALL_VARIANTS: Record<SmallVariant, string> = {
  primary: 'bg-indigo-600 text-white shadow-sm hover:bg-indigo-500 disabled:bg-indigo-300',
  secondary:
    'bg-white text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:text-slate-400 disabled:ring-slate-200',
  danger: 'bg-red-600 text-white shadow-sm hover:bg-red-500 disabled:bg-red-200',
  ghost: 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 disabled:text-slate-300',
};

/** A compact button for toolbars and list rows. */
export function SmallButton({
  variant = 'secondary',
  icon: Icon,
  children,
  className,
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: SmallVariant; icon?: LucideIcon }) {
  return (
    <button
      type={type}
      className={cn(
        'inline-flex items-center justify-center gap-1.5 rounded-lg px-3 py-1.5 text-xs font-semibold transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed',
        SMALL_VARIANTS[variant],
        className,
      )}
      {...props}
    >
      {Icon && <Icon className="size-3.5 shrink-0" aria-hidden />}
      {children}
    </button>
  );
}

/** A square icon-only button; `label` is its accessible name and tooltip. */
export function IconButton({
  icon: Icon,
  label,
  className,
  pressed,
  ...props
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> & {
  icon: LucideIcon;
  label: string;
  pressed?: boolean;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      className={cn(
        'inline-flex size-8 items-center justify-center rounded-lg transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-40',
        pressed
          ? 'bg-indigo-50 text-indigo-700 ring-1 ring-inset ring-indigo-200'
          : 'text-slate-500 hover:bg-slate-100 hover:text-slate-900',
        className,
      )}
      {...props}
    >
      <Icon className="size-4" aria-hidden />
    </button>
  );
}

/** An empty state inside a panel. */
export function EmptyState({ icon: Icon, title, hint }: { icon: LucideIcon; title: string; hint?: string }) {
  return (
    <div className="flex flex-col items-center justify-center rounded-xl border border-dashed border-slate-200 px-4 py-8 text-center">
      <Icon className="size-6 text-slate-300" aria-hidden />
      <p className="mt-2 text-sm font-medium text-slate-600">{title}</p>
      {hint && <p className="mt-1 max-w-xs text-xs text-slate-500">{hint}</p>}
    </div>
  );
}
