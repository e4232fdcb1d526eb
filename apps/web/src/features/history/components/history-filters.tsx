import { HISTORY_OUTCOMES, type ProjectSummary } from '@argus/protocol';
import { Filter, Search, X } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { SelectField } from '../../../components/select-field';
import { SmallButton } from '../../../components/small-button';
import { TextField } from '../../../components/text-field';
import { useProject } from '../api/get-project';
import { useSuites } from '../api/list-suites';
import { activeFilterCount, EMPTY_FILTERS, type HistoryFilters, withFilter } from '../model/filters';
import { KIND_TEXT, OUTCOME_TEXT } from '../model/format';

const DATE_INPUT =
  'mt-1.5 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs focus:border-indigo-500 focus:ring-4 focus:ring-indigo-100 focus:outline-none';

/** Options of a select: 'Any …' first, then the values, keeping the chosen one even if unknown. */
function options(any: string, values: { value: string; label: string }[], chosen: string) {
  const list = [{ value: '', label: any }, ...values];
  if (chosen && !values.some((v) => v.value === chosen)) list.push({ value: chosen, label: chosen });
  return list;
}

/**
 * The history's filters (docs/HISTORY.md): project, its environment and suite, status, kind,
 * trigger, engine, dates and text. Each change goes to the address at once; the text on submit or
 * after a pause in typing.
 */
export function HistoryFiltersForm({
  filters,
  onChange,
  projects,
  engines,
}: {
  filters: HistoryFilters;
  onChange: (filters: HistoryFilters) => void;
  projects: readonly ProjectSummary[];
  /** Engines seen in the lines loaded so far. */
  engines: readonly string[];
}) {
  const project = useProject(filters.project);
  const suites = useSuites(filters.project);
  const [text, setText] = useState(filters.q);
  useEffect(() => setText(filters.q), [filters.q]);
  // A pause in typing applies the text, as a submit does.
  useEffect(() => {
    if (text.trim() === filters.q) return;
    const timer = setTimeout(() => onChange({ ...filters, q: text.trim() }), 400);
    return () => clearTimeout(timer);
  }, [text, filters, onChange]);

  const set = <K extends keyof HistoryFilters>(key: K, value: HistoryFilters[K]) =>
    onChange(withFilter(filters, key, value));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ ...filters, q: text.trim() });
  };
  const active = activeFilterCount(filters);

  return (
    <form
      onSubmit={submit}
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-xs sm:p-5"
      aria-label="History filters"
      data-testid="history-filters"
    >
      <div className="flex flex-wrap items-end gap-3">
        <TextField
          label="Search"
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Suite, case, URL or command"
          icon={<Search className="size-4" aria-hidden />}
          className="min-w-0 flex-1 basis-64"
        />
        <SmallButton type="submit" variant="primary" icon={Filter} className="py-2.5">
          Apply
        </SmallButton>
        {active > 0 && (
          <SmallButton icon={X} className="py-2.5" onClick={() => onChange(EMPTY_FILTERS)}>
            Clear filters ({active})
          </SmallButton>
        )}
      </div>
      <div className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-4 xl:grid-cols-5">
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
        <SelectField
          label="Environment"
          value={filters.environment}
          disabled={!filters.project}
          title={filters.project ? undefined : 'Choose a project first'}
          onChange={(event) => set('environment', event.target.value)}
          options={options(
            'All',
            (project.data?.environments ?? []).map((e) => ({ value: e.id, label: e.name })),
            filters.environment,
          )}
        />
        <SelectField
          label="Suite"
          value={filters.suite}
          disabled={!filters.project}
          title={filters.project ? undefined : 'Choose a project first'}
          onChange={(event) => set('suite', event.target.value)}
          options={options(
            'All suites',
            (suites.data ?? []).map((s) => ({ value: s.id, label: s.name })),
            filters.suite,
          )}
        />
        <SelectField
          label="Status"
          value={filters.status}
          onChange={(event) => set('status', event.target.value as HistoryFilters['status'])}
          options={options(
            'Any status',
            HISTORY_OUTCOMES.map((o) => ({ value: o, label: OUTCOME_TEXT[o].label })),
            filters.status,
          )}
        />
        <SelectField
          label="Kind"
          value={filters.kind}
          onChange={(event) => set('kind', event.target.value as HistoryFilters['kind'])}
          options={options(
            'Everything',
            (['run', 'comparison', 'conversation'] as const).map((k) => ({ value: k, label: KIND_TEXT[k] })),
            filters.kind,
          )}
        />
        <SelectField
          label="Engine"
          value={filters.engine}
          onChange={(event) => set('engine', event.target.value)}
          options={options(
            'Any engine',
            engines.map((e) => ({ value: e, label: e })),
            filters.engine,
          )}
        />
        <SelectField
          label="Trigger"
          value={filters.trigger}
          onChange={(event) => set('trigger', event.target.value as HistoryFilters['trigger'])}
          options={options(
            'Any trigger',
            [
              { value: 'screen', label: 'From screen' },
              { value: 'api', label: 'Via API' },
              { value: 'schedule', label: 'Scheduled' },
            ],
            filters.trigger,
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
    </form>
  );
}
