import { cn } from '../lib/cn';
import type { SocketStatus } from '../lib/screen-realtime';
import { Badge } from './badge';
import { CONNECTION_STATUS } from './connection-status';

/** A screen's connection indicator (Connected / Connecting... / Disconnected; docs/PRODUCT.md#connection). */
export function ConnectionBadge({ status, testId }: { status: SocketStatus; testId: string }) {
  const conn = CONNECTION_STATUS[status];
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
