import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  EMPTY_FILTERS,
  filtersFromSearch,
  queryFromFilters,
  searchFromFilters,
  withFilter,
} from './filters';

describe('history filters in the address', () => {
  it('round-trips every filter through the query string', () => {
    const filters = {
      ...EMPTY_FILTERS,
      project: 'p1',
      environment: 'e1',
      suite: 's1',
      status: 'failed' as const,
      kind: 'run' as const,
      trigger: 'schedule' as const,
      engine: 'built-in',
      from: '2026-11-01',
      to: '2026-11-26',
      q: 'check out',
    };
    const search = searchFromFilters(filters);
    expect(search.toString()).toBe(
      'project=p1&environment=e1&suite=s1&status=failed&kind=run&trigger=schedule&engine=built-in&from=2026-11-01&to=2026-11-26&q=check+out',
    );
    expect(filtersFromSearch(new URLSearchParams(search.toString()))).toEqual(filters);
  });

  it('drops what it cannot read: an unknown status, kind or trigger, a malformed date', () => {
    const filters = filtersFromSearch(
      new URLSearchParams('status=green&kind=video&trigger=cron&from=yesterday&to=2026-13-45&q=%20x%20'),
    );
    expect(filters).toEqual({ ...EMPTY_FILTERS, q: 'x' });
    expect(searchFromFilters(EMPTY_FILTERS).toString()).toBe('');
  });

  it('clears the environment and suite when another project is chosen, not when the same one is', () => {
    const chosen = { ...EMPTY_FILTERS, project: 'p1', environment: 'e1', suite: 's1' };
    expect(withFilter(chosen, 'project', 'p2')).toEqual({ ...EMPTY_FILTERS, project: 'p2' });
    expect(withFilter(chosen, 'project', 'p1')).toEqual(chosen);
    expect(withFilter(chosen, 'status', 'passed')).toEqual({ ...chosen, status: 'passed' });
    expect(activeFilterCount(chosen)).toBe(3);
  });

  it('asks the server for the set filters only, by its parameter names', () => {
    expect(queryFromFilters({ ...EMPTY_FILTERS, project: 'p1', status: 'flaky', q: ' login ' })).toEqual({
      project_id: 'p1',
      status: 'flaky',
      q: 'login',
    });
    expect(queryFromFilters(EMPTY_FILTERS)).toEqual({});
  });
});
