import { AUDIT_ACTIONS, type ProjectSummary } from '@argus/protocol';
import { X } from 'lucide-react';
import { SelectField } from '../../../components/select-field';
import { SmallButton } from '../../../components/small-button';
import {
  ACTION_TEXT,
  type AuditFilters,
  activeAuditFilterCount,
  EMPTY_AUDIT_FILTERS,
} from '../model/filters';

const DATE_INPUT =
  'mt-1.5 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs focus:border-indigo-500 focus:ring-4 focus:ring-indigo-100 focus:outline-none';

/** Options of a select: 'Any …' first, then the values, keeping the chosen one even if unknown. */
function options(any: string, values: { value: string; label: string }[], chosen: string) {
  const list = [{ value: '', label: any }, ...values];
  if (chosen && !values.some((v) => v.value === chosen)) list.push({ value: chosen, label: chosen });
  return list;
}

/** The Audit screen's filters: person, action, project and dates. Each change goes to the address at once. */
export function AuditFiltersForm({
  filters,
  onChange,
  projects,
  people,
}: {
  filters: AuditFilters;
  onChange: (filters: AuditFilters) => void;
  projects: readonly ProjectSummary[];
  /** The people seen in the rows loaded so far (id and name). */
  people: readonly { id: string; label: string }[];
}) {
  const set = <K extends keyof AuditFilters>(key: K, value: AuditFilters[K]) =>
    onChange({ ...filters, [key]: value });
  const active = activeAuditFilterCount(filters);
  return (
    <form
      onSubmit={(event) => event.preventDefault()}
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-xs sm:p-5"
      aria-label="Audit filters"
      data-testid="audit-filters"
    >
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <SelectField
          label="Person"
          value={filters.actor}
          onChange={(event) => set('actor', event.target.value)}
          options={options(
            'Everyone',
            people.map((p) => ({ value: p.id, label: p.label })),
            filters.actor,
          )}
        />
        <SelectField
          label="Action"
          value={filters.action}
          onChange={(event) => set('action', event.target.value as AuditFilters['action'])}
          options={options(
            'Any action',
            AUDIT_ACTIONS.map((a) => ({ value: a, label: ACTION_TEXT[a] })),
            filters.action,
          )}
        />
        <SelectField
          label="Project"
          value={filters.project}
          onChange={(event) => set('project', event.target.value)}
          options={options(
            'All projects',
            projects.map((p) => ({ value: p.id, label: p.name })),
            filters.project,
          )}
        />
        <label className="block text-sm font-medium text-slate-700">
          From
          <input
            type="date"
            value={filters.from}
            max={filters.to || undefined}
            onChange={(event) => set('from', event.target.value)}
            className={DATE_INPUT}
          />
        </label>
        <label className="block text-sm font-medium text-slate-700">
          To
          <input
            type="date"
            value={filters.to}
            min={filters.from || undefined}
            onChange={(event) => set('to', event.target.value)}
            className={DATE_INPUT}
          />
        </label>
      </div>
      {active > 0 && (
        <div className="mt-3">
          <SmallButton icon={X} onClick={() => onChange(EMPTY_AUDIT_FILTERS)}>
            Clear filters ({active})
          </SmallButton>
        </div>
      )}
    </form>
  );
}
