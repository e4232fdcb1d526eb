/** The Argus mark (an all-seeing eye, as in the favicon) and word mark. */
export function BrandMark({ className = 'size-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true">
      <defs>
        <linearGradient id="argus-mark" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6366f1" />
          <stop offset="1" stopColor="#8b5cf6" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill="url(#argus-mark)" />
      <circle cx="16" cy="16" r="7" fill="none" stroke="#fff" strokeWidth="3" />
      <circle cx="16" cy="16" r="2.5" fill="#fff" />
    </svg>
  );
}

export function Brand({ tone = 'dark' }: { tone?: 'dark' | 'light' }) {
  return (
    <span className="flex items-center gap-2.5">
      <BrandMark />
      <span
        className={`text-xl font-bold tracking-tight ${tone === 'dark' ? 'text-slate-900' : 'text-white'}`}
      >
        Argus
      </span>
    </span>
  );
}
