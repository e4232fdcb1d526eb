import { CONNECTION_STATUS } from '../../components/connection-status';
import { cn } from '../../lib/cn';
import { useConnectionStatus } from './realtime-context';

/**
 * The shell header's live connection pill; its hover text says why the socket is down.
 *
 * Not the screens' ConnectionBadge component, on purpose: importing that .tsx module into the entry chunk
 * makes the bundler move react, zod and @argus/protocol into a chunk that runs before zod-config.ts, and
 * the protocol's schemas then probe for eval, which the Content-Security-Policy refuses (e2e/auth-shell).
 * The labels and dots are shared through components/connection-status.ts instead.
 */
export function ConnectionBadge({ className }: { className?: string }) {
  const { status, lastError } = useConnectionStatus();
  const conn = CONNECTION_STATUS[status];
  return (
    <span
      className={cn(
        'inline-flex items-center gap-2 rounded-full border border-slate-200 bg-white px-3 py-1 text-xs font-medium text-slate-600',
        className,
      )}
      title={lastError ?? undefined}
      data-testid="connection-status"
      data-status={status}
    >
      <span className={cn('size-2 rounded-full', conn.dot)} aria-hidden />
      {conn.label}
    </span>
  );
}
