import { AUDIT_ACTIONS } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import {
  ACTION_TEXT,
  activeAuditFilterCount,
  auditFiltersFromSearch,
  auditQueryFromFilters,
  detailText,
  EMPTY_AUDIT_FILTERS,
  searchFromAuditFilters,
  splitLabel,
} from './filters';

const ALICE = '0b6d3f9e-8f0a-4a47-9a52-2f0b6f3c1a10';

describe('the audit filters in the address', () => {
  it('reads what it knows and drops what it cannot read', () => {
    const read = auditFiltersFromSearch(
      new URLSearchParams(`actor=${ALICE}&action=drop_table&from=2026-11-01&to=not-a-day&project=x;y`),
    );
    expect(read).toEqual({ ...EMPTY_AUDIT_FILTERS, actor: ALICE, from: '2026-11-01' });
  });

  it('writes only the filters set, and asks the server with its own names', () => {
    const filters = {
      ...EMPTY_AUDIT_FILTERS,
      action: 'secret_set' as const,
      project: ALICE,
      to: '2026-11-30',
    };
    expect(searchFromAuditFilters(filters).toString()).toBe(
      `action=secret_set&project=${ALICE}&to=2026-11-30`,
    );
    expect(auditQueryFromFilters(filters)).toEqual({
      action: 'secret_set',
      project_id: ALICE,
      to: '2026-11-30',
    });
    expect(activeAuditFilterCount(filters)).toBe(3);
    expect(auditFiltersFromSearch(searchFromAuditFilters(filters))).toEqual(filters);
  });

  it('names every action of the vocabulary', () => {
    expect(Object.keys(ACTION_TEXT).sort()).toEqual([...AUDIT_ACTIONS].sort());
  });

  it('shows a row’s detail on one line, leaving ids and empty facts out', () => {
    expect(detailText({ suite_id: 'abc', version: 3, environment_id: null, fields: 'name' })).toBe(
      'version 3 · fields name',
    );
    expect(detailText({ api_token: 'f00', change: 'created' })).toBe('via an API token · change created');
  });

  it('splits a person’s label into name and email', () => {
    expect(splitLabel('alice <alice@example.com>')).toEqual({ name: 'alice', email: 'alice@example.com' });
    expect(splitLabel('ghost')).toEqual({ name: 'ghost', email: null });
  });
});
