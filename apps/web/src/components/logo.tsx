import { cn } from '../lib/cn';

/** The Argus mark (same drawing as the favicon): a watchful eye on an indigo tile. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-8 shrink-0', className)}>
      <rect width="32" height="32" rx="8" fill="#4f46e5" />
      <circle cx="16" cy="16" r="7" fill="none" stroke="#fff" strokeWidth="3" />
      <circle cx="16" cy="16" r="2.5" fill="#fff" />
    </svg>
  );
}

export function Logo({ className, inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2.5', className)}>
      <LogoMark />
      <span
        className={cn('text-lg font-semibold tracking-tight', inverted ? 'text-white' : 'text-slate-900')}
      >
        Argus
      </span>
    </span>
  );
}
