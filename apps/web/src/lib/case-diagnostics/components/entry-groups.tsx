import type { ConsoleEntry, NetworkEntry } from '@argus/protocol';
import type { ReactNode } from 'react';
import { cn } from '../../cn';
import { formatBytes } from '../model/artifacts';
import {
  formatMs,
  isConsoleError,
  isFailedRequest,
  requestOutcome,
  type StepEntries,
} from '../model/entries';

/** Entries under their step's heading; the failing step's heading marked. */
function Groups<T>({
  groups,
  empty,
  render,
  testId,
}: {
  groups: readonly StepEntries<T>[];
  empty: string;
  render: (entry: T, index: number) => ReactNode;
  testId: string;
}) {
  if (groups.length === 0) return <p className="text-xs text-slate-600">{empty}</p>;
  return (
    <div className="space-y-3" data-testid={testId}>
      {groups.map((group) => (
        <section
          key={group.stepIndex ?? 'before'}
          aria-label={group.heading}
          data-testid="entry-group"
          data-step={group.stepIndex ?? 'none'}
          data-failing={group.failing ? 'true' : undefined}
        >
          <h4
            className={cn(
              'text-xs font-semibold break-words',
              group.failing ? 'text-red-700' : 'text-slate-700',
            )}
          >
            {group.heading}
            {group.failing && <span className="font-normal"> · failed here</span>}
          </h4>
          <ul className="mt-1 divide-y divide-slate-100 rounded-lg border border-slate-200">
            {group.entries.map(render)}
          </ul>
        </section>
      ))}
    </div>
  );
}

const LEVEL_TEXT: Record<ConsoleEntry['level'], string> = {
  debug: 'debug',
  log: 'log',
  info: 'info',
  warning: 'warning',
  error: 'error',
  pageerror: 'page error',
};

/** Marks an entry a page-health finding names (ringed, focusable, `data-named`). */
type Named = (entry: { text: string } | { url: string }) => boolean;

function namedProps(isNamed: boolean) {
  return isNamed ? { 'data-named': 'true', tabIndex: -1 } : {};
}

export function ConsoleGroups({
  groups,
  named,
}: {
  groups: readonly StepEntries<ConsoleEntry>[];
  named?: Named;
}) {
  return (
    <Groups
      groups={groups}
      testId="console-entries"
      empty="No console messages match."
      render={(entry, index) => {
        const error = isConsoleError(entry);
        const isNamed = named?.(entry) ?? false;
        return (
          <li
            key={index}
            className={cn(
              'px-2.5 py-1.5 text-xs',
              error && 'bg-red-50/60',
              isNamed && 'ring-2 ring-inset ring-indigo-500 focus-visible:outline-none',
            )}
            data-testid="console-entry"
            data-level={entry.level}
            {...namedProps(isNamed)}
          >
            <span
              className={cn(
                'mr-2 inline-block font-semibold uppercase',
                error ? 'text-red-700' : entry.level === 'warning' ? 'text-amber-800' : 'text-slate-600',
              )}
            >
              {LEVEL_TEXT[entry.level]}
            </span>
            <span className="font-mono break-words whitespace-pre-wrap text-slate-800">{entry.text}</span>
            {entry.location && (
              <span className="mt-0.5 block font-mono break-all text-slate-600">{entry.location}</span>
            )}
          </li>
        );
      }}
    />
  );
}

export function NetworkGroups({
  groups,
  named,
}: {
  groups: readonly StepEntries<NetworkEntry>[];
  named?: Named;
}) {
  return (
    <Groups
      groups={groups}
      testId="network-entries"
      empty="No requests match."
      render={(entry, index) => {
        const failed = isFailedRequest(entry);
        const isNamed = named?.(entry) ?? false;
        return (
          <li
            key={index}
            className={cn(
              'flex flex-wrap items-baseline gap-x-2 px-2.5 py-1.5 text-xs',
              failed && 'bg-red-50/60',
              isNamed && 'ring-2 ring-inset ring-indigo-500 focus-visible:outline-none',
            )}
            {...namedProps(isNamed)}
            data-testid="network-entry"
            data-status={entry.status ?? 'none'}
            data-failed={failed ? 'true' : undefined}
          >
            <span className={cn('font-semibold tabular-nums', failed ? 'text-red-700' : 'text-emerald-700')}>
              {requestOutcome(entry)}
            </span>
            <span className="font-semibold text-slate-700">{entry.method}</span>
            <span className="min-w-0 flex-1 basis-40 font-mono break-all text-slate-800">{entry.url}</span>
            <span className="text-slate-600">
              {entry.resource_type} · {formatMs(entry.duration_ms)}
              {entry.response_bytes !== null && ` · ${formatBytes(entry.response_bytes)}`}
            </span>
          </li>
        );
      }}
    />
  );
}
