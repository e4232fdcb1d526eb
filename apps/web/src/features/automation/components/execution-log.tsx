import {
  AlertTriangle,
  ArrowDownToLine,
  CheckCircle2,
  ChevronDown,
  ChevronUp,
  Clock,
  ListTree,
  ScrollText,
  Search,
  Sparkles,
  XCircle,
} from 'lucide-react';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { Badge } from '../../../components/badge';
import { EmptyState } from '../../../components/empty-state';
import { IconButton } from '../../../components/icon-button';
import { Panel } from '../../../components/panel';
import { cn } from '../../../lib/cn';
import {
  countByStatus,
  filterEntries,
  firstErrorKey,
  LOG_FILTERS,
  type LogEntry,
  type LogFilter,
  scrollTarget,
  stepText,
} from '../model/step-log';
import { formatTokenSplit, formatUsage, isZeroUsage, type StepHow, stepHow } from '../model/usage';

const FILTER_LABELS: Record<LogFilter, string> = {
  all: 'All',
  success: 'Success',
  error: 'Error',
  pending: 'Pending',
};

const FILTER_ACTIVE: Record<LogFilter, string> = {
  all: 'bg-slate-900 text-white ring-slate-900',
  success: 'bg-emerald-700 text-white ring-emerald-700',
  error: 'bg-red-600 text-white ring-red-600',
  pending: 'bg-amber-700 text-white ring-amber-700',
};

/** One formatter for every line (building one per call is slow with hundreds of lines). */
const TIME_FORMAT = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});

function timeOf(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? '' : TIME_FORMAT.format(date);
}

function StepIcon({ status }: { status: LogEntry['status'] }) {
  if (status === 'success') return <CheckCircle2 className="size-4 text-emerald-600" aria-label="Success" />;
  if (status === 'error') return <XCircle className="size-4 text-red-600" aria-label="Error" />;
  return <Clock className="size-4 text-amber-600" aria-label="Pending" />;
}

function Detail({ label, value, mono = false }: { label: string; value: string | null; mono?: boolean }) {
  if (!value) return null;
  return (
    <div className="flex gap-2">
      <dt className="w-16 shrink-0 text-slate-500">{label}</dt>
      <dd className={cn('min-w-0 break-all text-slate-600', mono && 'font-mono')}>{value}</dd>
    </div>
  );
}

/** 'AI', 'AI · from cache', 'AI · self-healed': said in words, the tooltip names the engine and the cost. */
function HowBadge({ how }: { how: StepHow }) {
  return (
    <span title={how.title} className="shrink-0" data-testid="step-engine-badge">
      <Badge tone={how.tone} className="gap-1 px-1.5 py-0 text-[10px] leading-4">
        <Sparkles className="size-3" aria-hidden />
        {how.label}
      </Badge>
    </span>
  );
}

/** One step; memoised, so a new step does not redraw every other line. */
const LogRow = memo(function LogRow({
  entry,
  showDetails,
  highlighted,
}: {
  entry: LogEntry;
  showDetails: boolean;
  highlighted: boolean;
}) {
  const how = stepHow(entry);
  const text = stepText(entry);
  const judged = entry.action === 'judge_expected_result';
  // A failed judgement's error already gives its reason.
  const outcome = text.outcome && !entry.error?.includes(text.outcome) ? text.outcome : null;
  const modelAtWork = how !== null && entry.status === 'pending';
  return (
    <li
      data-log-key={entry.key}
      data-testid="log-entry"
      data-status={entry.status}
      data-resolved-by={entry.resolvedBy ?? undefined}
      className={cn(
        // Off-screen lines are neither laid out nor painted: a run has hundreds of them.
        'rounded-lg px-2 py-2 transition-colors [contain-intrinsic-size:auto_3.5rem] [content-visibility:auto]',
        entry.status === 'error' ? 'bg-red-50/50' : 'hover:bg-slate-50',
        highlighted && 'ring-2 ring-red-400',
      )}
    >
      <div className="flex items-start gap-2">
        <span className="mt-0.5 shrink-0">
          <StepIcon status={entry.status} />
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-2 text-[11px] text-slate-500">
            <span className="font-mono font-semibold text-slate-500">#{entry.stepNumber}</span>
            <span className="min-w-0 truncate font-medium text-indigo-700" title={entry.testName}>
              {entry.testName}
            </span>
            {how && <HowBadge how={how} />}
            <span className="ml-auto shrink-0 tabular-nums">{timeOf(entry.timestamp)}</span>
          </div>
          <p className="mt-0.5 text-sm break-words text-slate-800">{text.main}</p>
          {outcome && (
            <p className="mt-0.5 text-xs break-words text-slate-600" data-testid="log-entry-outcome">
              <span className="font-medium text-slate-700">{judged ? 'Verdict:' : 'Done:'}</span> {outcome}
            </p>
          )}
          {/* The model's live thought and goal; before its first thought the next goal is only the next line. */}
          {modelAtWork && text.thought && (
            <div
              className="mt-1 space-y-0.5 text-xs break-words text-amber-900"
              data-testid="log-entry-thinking"
            >
              <p className="italic">{text.thought}</p>
              {entry.nextGoal && (
                <p>
                  <span className="font-medium">Next goal:</span> {entry.nextGoal}
                </p>
              )}
            </div>
          )}
          {entry.error && (
            <p className="mt-1 text-xs break-words text-red-700" data-testid="log-entry-error">
              {entry.error}
            </p>
          )}
          {showDetails && (
            <dl className="mt-1.5 space-y-0.5 rounded-md bg-slate-50 px-2 py-1.5 text-[11px]">
              <Detail label="Action" value={entry.action} />
              <Detail label="URL" value={entry.url} mono />
              <Detail label="Selector" value={entry.selector} mono />
              <Detail label="Value" value={entry.value} mono />
              <Detail label="Error" value={entry.error} />
              <Detail label="Next goal" value={entry.nextGoal} />
              <Detail label="Engine" value={entry.engine} />
              <Detail
                label="Model"
                value={
                  entry.usage && !isZeroUsage(entry.usage)
                    ? `${formatUsage(entry.usage)} (${formatTokenSplit(entry.usage)})`
                    : entry.resolvedBy === 'cache'
                      ? 'No call: replayed from the cache'
                      : null
                }
              />
            </dl>
          )}
        </div>
      </div>
    </li>
  );
});

/** The step log (docs/PRODUCT.md#step-log): search, status filter with counts, auto-scroll, details, jump to first error. */
export function ExecutionLog({ entries }: { entries: readonly LogEntry[] }) {
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState<LogFilter>('all');
  const [autoScroll, setAutoScroll] = useState(true);
  const [showDetails, setShowDetails] = useState(false);
  const [jumpTo, setJumpTo] = useState<string | null>(null);
  const [highlight, setHighlight] = useState<string | null>(null);
  const listRef = useRef<HTMLElement>(null);

  const counts = useMemo(() => countByStatus(entries), [entries]);
  const visible = useMemo(() => filterEntries(entries, filter, query), [entries, filter, query]);
  const firstError = firstErrorKey(entries);

  // Follow new steps while auto-scroll is on.
  useEffect(() => {
    const list = listRef.current;
    if (autoScroll && list && visible.length > 0) list.scrollTop = list.scrollHeight;
  }, [visible, autoScroll]);

  // Jump to the first error once it is rendered. Lines above it may only now get their real height
  // (off-screen lines are skipped), so the position is corrected over the next frames.
  useEffect(() => {
    if (!jumpTo) return;
    const list = listRef.current;
    const target = Array.from(list?.querySelectorAll<HTMLElement>('[data-log-key]') ?? []).find(
      (element) => element.dataset.logKey === jumpTo,
    );
    setJumpTo(null);
    if (!list || !target) return;
    setHighlight(jumpTo);
    // A few frames only, harmless after unmount; not cancelled when jumpTo goes back to null.
    let frames = 0;
    const align = () => {
      const offset = target.getBoundingClientRect().top - list.getBoundingClientRect().top - 8;
      if (Math.abs(offset) > 1) list.scrollTop += offset;
      frames += 1;
      if (frames < 4) requestAnimationFrame(align);
    };
    align();
  }, [jumpTo]);

  useEffect(() => {
    if (!highlight) return;
    const timer = setTimeout(() => setHighlight(null), 2000);
    return () => clearTimeout(timer);
  }, [highlight]);

  const jumpToFirstError = () => {
    if (!firstError) return;
    setAutoScroll(false);
    if (!visible.some((entry) => entry.key === firstError)) {
      setFilter('all');
      setQuery('');
    }
    setJumpTo(firstError);
  };

  const scrollBy = (direction: 'up' | 'down') => {
    const list = listRef.current;
    if (!list) return;
    if (direction === 'up') setAutoScroll(false);
    list.scrollTop = scrollTarget(list.scrollTop, direction, list.scrollHeight - list.clientHeight);
  };

  return (
    <Panel
      title="Execution Log"
      icon={ScrollText}
      subtitle={entries.length ? `${entries.length} steps` : undefined}
      testId="execution-log"
      bodyClassName="p-0"
      aside={
        <>
          <IconButton
            icon={ArrowDownToLine}
            label="Auto-scroll"
            pressed={autoScroll}
            onClick={() => setAutoScroll((value) => !value)}
          />
          <IconButton
            icon={ListTree}
            label="Show details"
            pressed={showDetails}
            onClick={() => setShowDetails((value) => !value)}
          />
          <IconButton
            icon={AlertTriangle}
            label="Jump to first error"
            onClick={jumpToFirstError}
            disabled={!firstError}
            className={firstError ? 'text-red-600 hover:bg-red-50 hover:text-red-700' : undefined}
          />
        </>
      }
    >
      <div className="space-y-3 border-b border-slate-100 px-5 py-3">
        <div className="flex items-center gap-1">
          <div className="relative min-w-0 flex-1">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
              aria-hidden
            />
            <input
              type="search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              placeholder="Search steps..."
              aria-label="Search steps"
              className="block w-full rounded-lg border border-slate-300 bg-white py-2 pr-3 pl-9 text-sm text-slate-900 placeholder:text-slate-500 focus:border-indigo-500 focus:ring-4 focus:ring-indigo-100 focus:outline-none"
            />
          </div>
          <IconButton icon={ChevronUp} label="Scroll up" onClick={() => scrollBy('up')} />
          <IconButton icon={ChevronDown} label="Scroll down" onClick={() => scrollBy('down')} />
        </div>
        <fieldset className="flex min-w-0 flex-wrap items-center gap-1">
          <legend className="sr-only">Filter by status</legend>
          {LOG_FILTERS.map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={filter === value}
              onClick={() => setFilter(value)}
              data-testid={`log-filter-${value}`}
              className={cn(
                'inline-flex items-center gap-1 rounded-full py-1 pr-1 pl-2 text-xs font-medium ring-1 transition ring-inset',
                filter === value
                  ? FILTER_ACTIVE[value]
                  : 'bg-white text-slate-600 ring-slate-200 hover:bg-slate-50',
              )}
            >
              {FILTER_LABELS[value]}
              <span
                className={cn(
                  'rounded-full px-1.5 text-[11px] tabular-nums',
                  filter === value ? 'bg-white/20' : 'bg-slate-100 text-slate-600',
                )}
              >
                {counts[value]}
              </span>
            </button>
          ))}
        </fieldset>
      </div>
      <section
        ref={listRef}
        aria-label="Steps"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
        tabIndex={0}
        className="relative max-h-96 overflow-y-auto px-3 py-2 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-600"
        data-testid="log-scroll"
      >
        {entries.length === 0 ? (
          <div className="p-2">
            <EmptyState
              icon={ScrollText}
              title="No steps yet"
              hint="Live steps appear here while tests run."
            />
          </div>
        ) : visible.length === 0 ? (
          <p className="px-2 py-6 text-center text-sm text-slate-500">No steps match.</p>
        ) : (
          <ol className="space-y-1">
            {visible.map((entry) => (
              <LogRow
                key={entry.key}
                entry={entry}
                showDetails={showDetails}
                highlighted={highlight === entry.key}
              />
            ))}
          </ol>
        )}
      </section>
    </Panel>
  );
}
