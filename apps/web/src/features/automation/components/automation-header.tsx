import type { TestMode, User } from '@argus/protocol';
import {
  AlertTriangle,
  Bot,
  CheckCircle2,
  Circle,
  FileDown,
  Layers,
  Loader2,
  RotateCcw,
  Square,
  SquareTerminal,
  Trash2,
  UserRound,
  XCircle,
} from 'lucide-react';
import { Badge } from '../../../components/badge';
import { ConnectionBadge } from '../../../components/connection-badge';
import { ScreenHeader } from '../../../components/screen-header';
import { SmallButton } from '../../../components/small-button';
import { cn } from '../../../lib/cn';
import type { SocketStatus } from '../../../lib/screen-realtime';
import type { ExecutionStatus, StatusTone } from '../model/execution';

function StatusIcon({ tone }: { tone: StatusTone }) {
  switch (tone) {
    case 'busy':
      return <Loader2 className="mt-0.5 size-4 shrink-0 animate-spin text-indigo-600" aria-hidden />;
    case 'success':
      return <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden />;
    case 'warning':
      return <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />;
    case 'error':
      return <XCircle className="mt-0.5 size-4 shrink-0 text-red-600" aria-hidden />;
    case 'neutral':
      return <Circle className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden />;
  }
}

/** Text colours with at least 4.5:1 contrast on white. */
const TONE_TEXT: Record<StatusTone, string> = {
  busy: 'text-slate-600',
  success: 'text-emerald-700',
  warning: 'text-amber-800',
  error: 'text-red-700',
  neutral: 'text-slate-600',
};

export interface AutomationHeaderProps {
  user: User | null;
  mode: TestMode;
  connection: SocketStatus;
  status: ExecutionStatus;
  /** Success only for a completed run where every test passed; a run with failures is a warning. */
  statusTone: StatusTone;
  statusText: string;
  stopFlagSet: boolean;
  canStop: boolean;
  canClear: boolean;
  canExport: boolean;
  onStop: () => void;
  onResetStopFlag: () => void;
  onClear: () => void;
  onExport: () => void;
}

/** docs/PRODUCT.md#automation: user label, mode badge, connection badge, status text; and the screen's actions. */
export function AutomationHeader(props: AutomationHeaderProps) {
  const { user, mode, connection, status, statusTone: tone } = props;
  const userLabel = user ? user.full_name?.trim() || user.username : null;
  return (
    <ScreenHeader
      icon={Bot}
      title="Automation Mode"
      description={
        <p
          className={cn('mt-1 flex items-start gap-2 text-sm', TONE_TEXT[tone])}
          data-testid="automation-status"
          data-state={status}
          data-tone={tone}
          aria-live="polite"
        >
          <StatusIcon tone={tone} />
          <span className="min-w-0 break-words">{props.statusText}</span>
        </p>
      }
      aside={
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone="slate" data-testid="automation-user">
            <UserRound className="size-3.5" aria-hidden />
            {userLabel ? `Signed in as ${userLabel}` : 'Not signed in'}
          </Badge>
          <Badge tone="indigo" data-testid="mode-badge" data-mode={mode}>
            {mode === 'command' ? (
              <SquareTerminal className="size-3.5" aria-hidden />
            ) : (
              <Layers className="size-3.5" aria-hidden />
            )}
            {mode === 'command' ? 'Command' : 'Full'}
          </Badge>
          <ConnectionBadge status={connection} testId="automation-connection" />
        </div>
      }
    >
      <div className="mt-4 flex flex-wrap items-center gap-2 border-t border-slate-100 pt-4">
        <SmallButton
          variant="danger"
          icon={Square}
          onClick={props.onStop}
          disabled={!props.canStop}
          title={props.stopFlagSet ? 'Stop requested: press again to force it' : 'Stop the running tests'}
        >
          {props.stopFlagSet ? 'Force Stop' : 'Stop'}
        </SmallButton>
        <SmallButton icon={RotateCcw} onClick={props.onResetStopFlag} data-stop-flag={props.stopFlagSet}>
          Reset stop flag
        </SmallButton>
        {props.stopFlagSet && (
          <Badge tone="amber" data-testid="stop-flag">
            Stop requested
          </Badge>
        )}
        <div className="ml-auto flex flex-wrap items-center gap-2">
          <SmallButton icon={Trash2} onClick={props.onClear} disabled={!props.canClear}>
            Clear results
          </SmallButton>
          <SmallButton icon={FileDown} onClick={props.onExport} disabled={!props.canExport}>
            Export results
          </SmallButton>
        </div>
      </div>
    </ScreenHeader>
  );
}
