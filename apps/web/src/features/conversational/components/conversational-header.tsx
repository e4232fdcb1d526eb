import { MessagesSquare } from 'lucide-react';
import { ConnectionBadge } from '../../../components/connection-badge';
import { ScreenHeader } from '../../../components/screen-header';
import { cn } from '../../../lib/cn';
import type { SocketStatus } from '../../../lib/screen-realtime';
import type { BrowserStatus } from '../model/conversation-state';

const STATUS_TEXT: Record<BrowserStatus, string> = {
  idle: 'Type a URL or a message to start a live browser',
  loading: 'Starting the browser...',
  ready: 'Live: tell the assistant what to do',
  stopping: 'Stopping session...',
  stopped: 'Session ended',
  error: 'Browser error occurred',
};

/** The screen's title, the live browser's status and the connection. */
export function ConversationalHeader({
  connection,
  status,
}: {
  connection: SocketStatus;
  status: BrowserStatus;
}) {
  return (
    <ScreenHeader
      icon={MessagesSquare}
      title="Conversational Mode"
      titleClassName="basis-52"
      description={
        <p
          className={cn('mt-1 text-sm', status === 'error' ? 'text-red-700' : 'text-slate-600')}
          data-testid="browser-status"
          data-status={status}
          aria-live="polite"
        >
          {STATUS_TEXT[status]}
        </p>
      }
      aside={<ConnectionBadge status={connection} testId="conversational-connection" />}
    />
  );
}
