import { cn } from '../lib/cn';
import type { SocketStatus } from '../lib/screen-realtime';
import { Badge } from './badge';

const CONNECTION: Record<SocketStatus, { label: string; dot: string }> = {
  connected: { label: 'Connected', dot: 'bg-emerald-500' },
  connecting: { label: 'Connecting...', dot: 'bg-amber-400 animate-pulse' },
  disconnected: { label: 'Disconnected', dot: 'bg-slate-400' },
  error: { label: 'Disconnected', dot: 'bg-red-500' },
};

/**
 * The connection indicator (Connected / Connecting... / Disconnected; docs/PRODUCT.md). A screen's header
 * shows it toned by the state; the app shell's header shows it as a quiet white pill ('plain').
 */
export function ConnectionBadge({
  status,
  testId,
  title,
  look = 'toned',
}: {
  status: SocketStatus;
  testId: string;
  /** Shown on hover, e.g. why the socket is down. */
  title?: string;
  look?: 'toned' | 'plain';
}) {
  const conn = CONNECTION[status];
  const dot = <span className={cn('size-2 rounded-full', conn.dot)} aria-hidden />;
  if (look === 'plain') {
    return (
      <span
        className="inline-flex items-center gap-2 rounded-full border border-slate-200 bg-white px-3 py-1 text-xs font-medium text-slate-600"
        title={title}
        data-testid={testId}
        data-status={status}
      >
        {dot}
        {conn.label}
      </span>
    );
  }
  return (
    <Badge
      tone={status === 'connected' ? 'green' : status === 'connecting' ? 'amber' : 'red'}
      data-testid={testId}
      data-status={status}
      title={title}
    >
      {dot}
      {conn.label}
    </Badge>
  );
}
