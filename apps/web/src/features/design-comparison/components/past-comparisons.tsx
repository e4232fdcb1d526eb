import { ScanSearch } from 'lucide-react';
import { PastListPanel } from '../../../components/past-list-panel';
import { cn } from '../../../lib/cn';
import { usePastComparisons } from '../api/list-comparisons';
import { pastComparisonView } from '../model/past-comparisons';
import { QUALITY_BADGE } from './tones';

export interface PastComparisonsProps {
  enabled: boolean;
  /** The session shown now, marked in the list. */
  currentSessionId: string | null;
  /** While a comparison runs, the list waits. */
  disabled: boolean;
  onOpen: (sessionId: string) => void;
}

/** Beyond the spec: the user's past comparisons (the latest of each session), each reopened by a click. */
export function PastComparisons({ enabled, currentSessionId, disabled, onOpen }: PastComparisonsProps) {
  const list = usePastComparisons(enabled);
  return (
    <PastListPanel
      title="Past comparisons"
      testId="past-comparisons"
      loadingLabel="Loading comparisons"
      list={list}
      empty={{
        icon: ScanSearch,
        title: 'No comparisons yet',
        hint: 'Each comparison you run is kept here to open again.',
      }}
      listHeightClassName="max-h-80"
      itemKey={(summary) => summary.session_id}
      renderItem={(summary) => {
        const item = pastComparisonView(summary);
        const current = item.sessionId === currentSessionId;
        return (
          <button
            type="button"
            onClick={() => onOpen(item.sessionId)}
            disabled={disabled}
            aria-current={current ? 'true' : undefined}
            className={cn(
              'flex w-full items-center gap-3 rounded-lg px-2 py-2 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-60',
              current && 'bg-indigo-50/60',
            )}
            data-testid="past-comparison-item"
          >
            <span className="min-w-0 flex-1">
              <span className="block truncate text-sm font-medium text-slate-800" title={summary.website_url}>
                {item.site}
              </span>
              <span className="block truncate text-xs text-slate-600">
                {item.design}
                {item.when ? ` · ${item.when}` : ''}
              </span>
            </span>
            <span
              className={cn(
                'inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset tabular-nums',
                QUALITY_BADGE[item.tone],
              )}
              title={item.quality}
              data-testid="past-comparison-score"
              data-tone={item.tone}
            >
              {item.percent}
            </span>
          </button>
        );
      }}
    />
  );
}
