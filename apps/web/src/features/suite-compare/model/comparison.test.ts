import {
  type SavedSuite,
  type SuiteCaseChange,
  type SuiteComparison,
  SuiteComparisonSchema,
} from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import {
  acceptedText,
  caseName,
  countsText,
  defaultSelection,
  elapsedText,
  groupChanges,
  isAcceptable,
} from './comparison';

function change(key: string, kind: SuiteCaseChange['kind'], curated = false): unknown {
  const saved = kind === 'added' ? null : { test_name: `Saved ${key}`, steps: ['Navigate to /'] };
  const generated = kind === 'removed' ? null : { test_name: `New ${key}`, steps: ['Navigate to /'] };
  return {
    key,
    kind,
    behaviour: `Behaviour ${key}`,
    saved,
    saved_index: saved ? 0 : null,
    generated,
    diff: [],
    curated,
  };
}

const comparison: SuiteComparison = SuiteComparisonSchema.parse({
  id: 'c1',
  project_id: 'p1',
  suite_id: 's1',
  suite_version: 3,
  environment_id: 'e1',
  engine: 'built-in (rule-based)',
  changes: [
    change('a', 'added'),
    change('r', 'removed'),
    change('c', 'changed'),
    change('k', 'changed', true),
    change('u', 'unchanged'),
  ],
  counts: { added: 1, removed: 1, changed: 2, unchanged: 1 },
  created_at: '2026-11-29T12:00:00Z',
});

describe('the comparison review', () => {
  it('chooses the added and the changed cases at first, never a curated one nor a removal', () => {
    expect([...defaultSelection(comparison)].sort()).toEqual(['a', 'c']);
  });

  it('groups the changes by kind and accepts no unchanged one', () => {
    const groups = groupChanges(comparison);
    expect(Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, v.map((c) => c.key)]))).toEqual({
      added: ['a'],
      removed: ['r'],
      changed: ['c', 'k'],
      unchanged: ['u'],
    });
    expect(comparison.changes.filter(isAcceptable).map((c) => c.key)).toEqual(['a', 'r', 'c', 'k']);
  });

  it('names a case by its generated name, else its saved one', () => {
    expect(comparison.changes.map(caseName)).toEqual(['New a', 'Saved r', 'New c', 'New k', 'New u']);
  });

  it('says the counts, the version saved and the time taken', () => {
    expect(countsText(comparison)).toBe('Added 1 · Removed 1 · Changed 2 · Unchanged 1');
    const suite = {
      version: 5,
      versions: [
        { version: 4, change: 'Edited', saved_by: 'a', saved_at: '', test_count: 3 },
        { version: 5, change: 'Regenerated: 1 added', saved_by: 'a', saved_at: '', test_count: 4 },
      ],
    } as unknown as SavedSuite;
    expect(acceptedText(suite)).toBe('Saved as version 5: Regenerated: 1 added');
    expect(elapsedText(7_400)).toBe('0:07');
    expect(elapsedText(92_000)).toBe('1:32');
  });
});
