import { cn } from '../lib/cn';
import { Badge } from './badge';

/** The socket's state as the realtime client reports it. */
export type SocketStatus = 'disconnected' | 'connecting' | 'connected' | 'error';

const CONNECTION: Record<SocketStatus, { label: string; dot: string }> = {
  connected: { label: 'Connected', dot: 'bg-emerald-500' },
  connecting: { label: 'Connecting...', dot: 'bg-amber-400 animate-pulse' },
  disconnected: { label: 'Disconnected', dot: 'bg-slate-400' },
  error: { label: 'Disconnected', dot: 'bg-red-500' },
};

/** Spec §2's connection indicator (Connected / Connecting... / Disconnected), as every screen shows it. */
export function ConnectionBadge({ status, testId }: { status: SocketStatus; testId: string }) {
  const conn = CONNECTION[status];
  return (
    <Badge
      tone={status === 'connected' ? 'green' : status === 'connecting' ? 'amber' : 'red'}
      data-testid={testId}
      data-status={status}
    >
      <span className={cn('size-2 rounded-full', conn.dot)} aria-hidden />
      {conn.label}
    </Badge>
  );
}
