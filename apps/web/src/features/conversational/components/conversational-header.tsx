import { MessagesSquare } from 'lucide-react';
import { ConnectionBadge } from '../../../components/connection-badge';
import { cn } from '../../../lib/cn';
import type { BrowserStatus } from '../model/conversation-state';
import type { ConversationalRealtime } from '../types';

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
  connection: ConversationalRealtime['status'];
  status: BrowserStatus;
}) {
  return (
    <section className="rounded-2xl border border-slate-200 bg-white px-5 py-5 shadow-xs sm:px-6">
      <div className="flex flex-wrap items-start gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-indigo-600 text-white shadow-sm shadow-indigo-600/20">
          <MessagesSquare className="size-5" aria-hidden />
        </span>
        <div className="min-w-0 flex-1 basis-52">
          <h1 className="text-xl font-semibold tracking-tight text-slate-900">Conversational Mode</h1>
          <p
            className={cn('mt-1 text-sm', status === 'error' ? 'text-red-700' : 'text-slate-600')}
            data-testid="browser-status"
            data-status={status}
            aria-live="polite"
          >
            {STATUS_TEXT[status]}
          </p>
        </div>
        <ConnectionBadge status={connection} testId="conversational-connection" />
      </div>
    </section>
  );
}
