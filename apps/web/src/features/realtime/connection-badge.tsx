import { cn } from '../../lib/cn';
import type { ConnectionStatus } from './realtime-client';
import { useConnectionStatus } from './realtime-context';

const LABELS: Record<ConnectionStatus, string> = {
  connected: 'Connected',
  connecting: 'Connecting...',
  disconnected: 'Disconnected',
  error: 'Disconnected',
};

const DOT: Record<ConnectionStatus, string> = {
  connected: 'bg-emerald-500',
  connecting: 'bg-amber-400 animate-pulse',
  disconnected: 'bg-slate-400',
  error: 'bg-red-500',
};

/** A small live-connection pill for headers. */
export function ConnectionBadge({ className }: { className?: string }) {
  const { status, lastError } = useConnectionStatus();
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
      <span className={cn('size-2 rounded-full', DOT[status])} aria-hidden />
      {LABELS[status]}
    </span>
  );
}
