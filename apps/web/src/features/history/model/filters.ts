import {
  HISTORY_KINDS,
  HISTORY_OUTCOMES,
  type HistoryKind,
  type HistoryOutcome,
  type HistoryQuery,
  RUN_TRIGGERS,
} from '@argus/protocol';

// The history list's filters live in the address (docs/HISTORY.md): a filtered list can be shared
// and survives a reload. Anything unreadable in the address is dropped, never sent to the server.

export type RunTrigger = (typeof RUN_TRIGGERS)[number];

export interface HistoryFilters {
  project: string;
  environment: string;
  suite: string;
  status: HistoryOutcome | '';
  kind: HistoryKind | '';
  trigger: RunTrigger | '';
  engine: string;
  /** YYYY-MM-DD, inclusive. */
  from: string;
  /** YYYY-MM-DD, inclusive (the server counts a bare date's whole day). */
  to: string;
  q: string;
}

export const EMPTY_FILTERS: HistoryFilters = {
  project: '',
  environment: '',
  suite: '',
  status: '',
  kind: '',
  trigger: '',
  engine: '',
  from: '',
  to: '',
  q: '',
};

const FILTER_KEYS = Object.keys(EMPTY_FILTERS) as (keyof HistoryFilters)[];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function oneOf<T extends string>(values: readonly T[], value: string | null): T | '' {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : '';
}

function day(value: string | null): string {
  return value && DAY.test(value) && !Number.isNaN(Date.parse(value)) ? value : '';
}

function text(value: string | null, max: number): string {
  return (value ?? '').trim().slice(0, max);
}

/** The filters an address holds (`?project=…&status=failed&q=checkout`). */
export function filtersFromSearch(search: URLSearchParams): HistoryFilters {
  return {
    project: text(search.get('project'), 100),
    environment: text(search.get('environment'), 100),
    suite: text(search.get('suite'), 100),
    status: oneOf(HISTORY_OUTCOMES, search.get('status')),
    kind: oneOf(HISTORY_KINDS, search.get('kind')),
    trigger: oneOf(RUN_TRIGGERS, search.get('trigger')),
    engine: text(search.get('engine'), 100),
    from: day(search.get('from')),
    to: day(search.get('to')),
    q: text(search.get('q'), 200),
  };
}

/** The address for some filters: only those set, in a fixed order, so equal filters give equal links. */
export function searchFromFilters(filters: HistoryFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key].trim();
    if (value) search.set(key, value);
  }
  return search;
}

/**
 * One filter changed. A project's environments and suites are its own, so choosing another project
 * clears them; an environment or suite chosen without a project is kept (the server checks it).
 */
export function withFilter<K extends keyof HistoryFilters>(
  filters: HistoryFilters,
  key: K,
  value: HistoryFilters[K],
): HistoryFilters {
  const next = { ...filters, [key]: value };
  if (key === 'project' && value !== filters.project) {
    next.environment = '';
    next.suite = '';
  }
  return next;
}

/** How many filters are set (the 'Clear filters' button shows when any is). */
export function activeFilterCount(filters: HistoryFilters): number {
  return FILTER_KEYS.filter((key) => filters[key].trim() !== '').length;
}

/** `GET /api/history`'s query for these filters (the cursor and limit are added per page). */
export function queryFromFilters(filters: HistoryFilters): HistoryQuery {
  const query: HistoryQuery = {};
  if (filters.project) query.project_id = filters.project;
  if (filters.environment) query.environment_id = filters.environment;
  if (filters.suite) query.suite_id = filters.suite;
  if (filters.status) query.status = filters.status;
  if (filters.kind) query.kind = filters.kind;
  if (filters.trigger) query.trigger = filters.trigger;
  if (filters.engine) query.engine = filters.engine;
  if (filters.from) query.from = filters.from;
  if (filters.to) query.to = filters.to;
  if (filters.q.trim()) query.q = filters.q.trim();
  return query;
}
