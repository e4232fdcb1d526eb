import type { ProjectSummary } from '@argus/protocol';
import { History, SearchX } from 'lucide-react';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../components/empty-state';
import { ScreenHeader } from '../../components/screen-header';
import { SmallButton } from '../../components/small-button';
import { Spinner } from '../../components/spinner';
import { errorText } from '../../lib/api-error';
import { FailureGroupsPanel } from '../../lib/case-diagnostics';
import { useHistory } from './api/list-history';
import { HistoryFiltersForm } from './components/history-filters';
import { HistoryRow } from './components/history-row';
import {
  activeFilterCount,
  EMPTY_FILTERS,
  filtersFromSearch,
  type HistoryFilters,
  queryFromFilters,
  searchFromFilters,
} from './model/filters';

export interface HistoryScreenProps {
  /** The user's projects, for the project filter. */
  projects: readonly ProjectSummary[];
}

/**
 * Test History (docs/HISTORY.md): every run, design comparison and conversation, newest first,
 * filtered by what the address says, a page at a time.
 */
export function HistoryScreen({ projects }: HistoryScreenProps) {
  const [search, setSearch] = useSearchParams();
  const searchText = search.toString();
  const filters = useMemo(() => filtersFromSearch(new URLSearchParams(searchText)), [searchText]);
  const query = useMemo(() => queryFromFilters(filters), [filters]);
  const history = useHistory(query);
  const onChange = useCallback(
    (next: HistoryFilters) => setSearch(searchFromFilters(next), { replace: false }),
    [setSearch],
  );
  const items = useMemo(() => history.data?.pages.flatMap((page) => page.items) ?? [], [history.data]);
  const engines = useMemo(
    () => [...new Set(items.map((item) => item.engine).filter((e): e is string => Boolean(e)))].sort(),
    [items],
  );
  const now = Date.now();
  const filtered = activeFilterCount(filters) > 0;

  return (
    <div className="mx-auto w-full max-w-6xl space-y-5">
      <ScreenHeader
        icon={History}
        title="Test History"
        description={
          <p className="mt-1 text-sm text-slate-600">
            Every test run, design comparison and conversation, newest first.
          </p>
        }
        aside={null}
      />
      <HistoryFiltersForm filters={filters} onChange={onChange} projects={projects} engines={engines} />
      <FailureGroupsPanel
        query={{ project_id: filters.project || undefined, since: filters.from || undefined }}
        hideWhenNone
      />
      <section
        aria-label="History"
        className="min-w-0 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-xs"
        data-testid="history-list"
      >
        {history.isPending ? (
          <div className="flex justify-center py-10 text-indigo-600">
            <Spinner label="Loading history" />
          </div>
        ) : history.isError ? (
          <p className="p-5 text-sm text-red-700" role="alert">
            {errorText(history.error, 'The history could not be loaded')}
          </p>
        ) : items.length === 0 ? (
          <div className="p-5">
            {filtered ? (
              <div className="space-y-3 text-center">
                <EmptyState
                  icon={SearchX}
                  title="Nothing matches these filters"
                  hint="Try a wider date range or another status."
                />
                <SmallButton onClick={() => onChange(EMPTY_FILTERS)}>Clear filters</SmallButton>
              </div>
            ) : (
              <EmptyState
                icon={History}
                title="No history yet"
                hint="Test runs, design comparisons and conversations appear here as you make them."
              />
            )}
          </div>
        ) : (
          <>
            <h2 className="sr-only">Results</h2>
            <ul className="divide-y divide-slate-100">
              {items.map((item) => (
                <HistoryRow key={`${item.kind}:${item.id}`} item={item} now={now} />
              ))}
            </ul>
            <div className="flex items-center justify-between gap-3 border-t border-slate-100 px-5 py-3 text-xs text-slate-600">
              <span aria-live="polite">
                {items.length} shown{history.hasNextPage ? '' : ' · that is all'}
              </span>
              {history.hasNextPage && (
                <SmallButton
                  onClick={() => void history.fetchNextPage()}
                  disabled={history.isFetchingNextPage}
                  data-testid="history-load-more"
                >
                  {history.isFetchingNextPage ? 'Loading…' : 'Load more'}
                </SmallButton>
              )}
            </div>
          </>
        )}
      </section>
    </div>
  );
}
