import type { ProjectSummary } from '@argus/protocol';
import { Download, ScrollText, SearchX, ShieldAlert } from 'lucide-react';
import { useCallback, useMemo } from 'react';
import toast from 'react-hot-toast';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../components/empty-state';
import { ScreenHeader } from '../../components/screen-header';
import { SmallButton } from '../../components/small-button';
import { Spinner } from '../../components/spinner';
import { ApiError } from '../../lib/api-client';
import { errorText } from '../../lib/api-error';
import { type AuditExportFormat, useExportAudit } from './api/export-audit';
import { useAuditLog } from './api/list-audit';
import { AuditFiltersForm } from './components/audit-filters';
import { AuditTable } from './components/audit-table';
import {
  type AuditFilters,
  activeAuditFilterCount,
  auditFiltersFromSearch,
  auditQueryFromFilters,
  EMPTY_AUDIT_FILTERS,
  searchFromAuditFilters,
} from './model/filters';

export interface AuditScreenProps {
  /** The caller's projects, for the project filter and the rows' project names. */
  projects: readonly ProjectSummary[];
}

/**
 * The Audit screen (docs/ORGANIZATIONS.md#audit-log): the organization's record of who did what,
 * newest first, filtered by what the address says, a page at a time, with CSV and JSON exports of
 * every row the filters pick. Admins and owners only: anyone else is told so.
 */
export function AuditScreen({ projects }: AuditScreenProps) {
  const [search, setSearch] = useSearchParams();
  const searchText = search.toString();
  const filters = useMemo(() => auditFiltersFromSearch(new URLSearchParams(searchText)), [searchText]);
  const query = useMemo(() => auditQueryFromFilters(filters), [filters]);
  const log = useAuditLog(query);
  const exporter = useExportAudit();
  const onChange = useCallback((next: AuditFilters) => setSearch(searchFromAuditFilters(next)), [setSearch]);
  const items = useMemo(() => log.data?.pages.flatMap((page) => page.items) ?? [], [log.data]);
  const people = useMemo(() => {
    const seen = new Map<string, string>();
    for (const item of items) if (item.actor && !seen.has(item.actor)) seen.set(item.actor, item.actor_label);
    return [...seen].map(([id, label]) => ({ id, label })).sort((a, b) => a.label.localeCompare(b.label));
  }, [items]);
  const names = useMemo(() => new Map(projects.map((p) => [p.id, p.name])), [projects]);
  const projectName = useCallback((id: string) => names.get(id), [names]);
  const refused = log.error instanceof ApiError && log.error.status === 403;
  const filtered = activeAuditFilterCount(filters) > 0;

  const download = (format: AuditExportFormat) =>
    exporter.mutate(
      { query, format },
      {
        onSuccess: (fileName) => toast.success(`Downloaded ${fileName}`),
        onError: (error) => toast.error(errorText(error, 'The export failed')),
      },
    );

  return (
    <div className="mx-auto w-full max-w-6xl space-y-5">
      <ScreenHeader
        icon={ScrollText}
        title="Audit Log"
        titleClassName="min-w-0 flex-1 basis-64"
        description={
          <p className="mt-1 text-sm text-slate-600">
            Who did what in this organization, when and from where, newest first. Rows are never changed.
          </p>
        }
        aside={
          refused ? null : (
            <div className="flex gap-2" data-testid="audit-export">
              {(['csv', 'json'] as const).map((format) => (
                <SmallButton
                  key={format}
                  icon={Download}
                  disabled={exporter.isPending}
                  onClick={() => download(format)}
                  aria-label={`Export ${format.toUpperCase()}${filtered ? ' (filtered)' : ''}`}
                >
                  {format.toUpperCase()}
                </SmallButton>
              ))}
            </div>
          )
        }
      />
      {refused ? (
        <section
          className="rounded-2xl border border-slate-200 bg-white p-5 shadow-xs"
          data-testid="audit-refused"
        >
          <EmptyState
            icon={ShieldAlert}
            title="Only admins and owners read the audit log"
            hint={errorText(log.error, 'Ask an admin of this organization.')}
          />
        </section>
      ) : (
        <>
          <AuditFiltersForm filters={filters} onChange={onChange} projects={projects} people={people} />
          <section
            aria-label="Audit log"
            className="min-w-0 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-xs"
            data-testid="audit-list"
          >
            {log.isPending ? (
              <div className="flex justify-center py-10 text-indigo-600">
                <Spinner label="Loading the audit log" />
              </div>
            ) : log.isError ? (
              <p className="p-5 text-sm text-red-700" role="alert">
                {errorText(log.error, 'The audit log could not be loaded')}
              </p>
            ) : items.length === 0 ? (
              <div className="space-y-3 p-5 text-center">
                {filtered ? (
                  <>
                    <EmptyState
                      icon={SearchX}
                      title="Nothing matches these filters"
                      hint="Try a wider date range or another action."
                    />
                    <SmallButton onClick={() => onChange(EMPTY_AUDIT_FILTERS)}>Clear filters</SmallButton>
                  </>
                ) : (
                  <EmptyState
                    icon={ScrollText}
                    title="Nothing recorded yet"
                    hint="Sign-ins and changes appear here."
                  />
                )}
              </div>
            ) : (
              <>
                <AuditTable items={items} projectName={projectName} />
                <div className="flex items-center justify-between gap-3 border-t border-slate-100 px-5 py-3 text-xs text-slate-600">
                  <span aria-live="polite">
                    {items.length} shown{log.hasNextPage ? '' : ' · that is all'}
                  </span>
                  {log.hasNextPage && (
                    <SmallButton
                      onClick={() => void log.fetchNextPage()}
                      disabled={log.isFetchingNextPage}
                      data-testid="audit-load-more"
                    >
                      {log.isFetchingNextPage ? 'Loading…' : 'Load more'}
                    </SmallButton>
                  )}
                </div>
              </>
            )}
          </section>
        </>
      )}
    </div>
  );
}
