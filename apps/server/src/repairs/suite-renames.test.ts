import type { CaseRepairRow } from '@argus/db';
import { describe, expect, it } from 'vitest';
import type { RepairStore } from './repair-store';
import { suiteRenames } from './suite-renames';

// The renames a suite's repairs taught (docs/REPAIRS.md#renames-learnt-across-the-suite), over a store
// that answers set rows newest first: only standing proved repairs teach, and the newest one wins.

const BEFORE = ['Open /', 'Click "Mark all as complete"', 'Verify text "0 items left" is visible'];

/** A repair row as the suite lists it (newest first): `to` in place of "Mark all as complete". */
function row(caseName: string, to: string, over: Partial<CaseRepairRow> = {}): CaseRepairRow {
  return {
    case_name: caseName,
    verdict: 'repair',
    status: 'proposed',
    steps_before: BEFORE,
    steps_after: BEFORE.map((line) => line.replace('Mark all as complete', to)),
    ...over,
  } as CaseRepairRow;
}

/** A store listing `rows` for suite-1 of org-1, keeping what it was asked. */
function store(rows: CaseRepairRow[]) {
  const asked: unknown[][] = [];
  const fake: Pick<RepairStore, 'forSuite'> = {
    forSuite: async (...args) => {
      asked.push(args);
      return args[0] === 'org-1' && args[1] === 'suite-1' ? rows : [];
    },
  };
  return { fake, asked };
}

describe("a suite's renames", () => {
  it('reads the renames off proposed and approved repairs, naming the case that showed them', async () => {
    const { fake, asked } = store([
      row('Complete all', 'Finish everything'),
      row('Clear completed', 'Tidy up', {
        status: 'approved',
        steps_before: ['Click "Clear completed"'],
        steps_after: ['Click "Tidy up"'],
      }),
    ]);
    expect(await suiteRenames(fake, 'org-1', 'suite-1')).toEqual([
      { from: 'Mark all as complete', to: 'Finish everything', seenIn: 'Complete all' },
      { from: 'Clear completed', to: 'Tidy up', seenIn: 'Clear completed' },
    ]);
    expect(asked).toEqual([['org-1', 'suite-1', { limit: 100 }]]);
  });

  it('learns nothing from rejected, superseded, weakening or bug rows', async () => {
    const { fake } = store([
      row('A', 'Finish everything', { status: 'rejected' }),
      row('B', 'Finish everything', { status: 'superseded' }),
      row('C', 'Finish everything', { verdict: 'weakens' }),
      row('D', 'Finish everything', { verdict: 'bug', status: 'none' }),
    ]);
    expect(await suiteRenames(fake, 'org-1', 'suite-1')).toEqual([]);
    expect(await suiteRenames(store([]).fake, 'org-1', 'suite-1')).toEqual([]);
  });

  it('keeps one rename per old name: the newest repair wins', async () => {
    const { fake } = store([
      row('Newer', 'Finish everything'),
      row('Older', 'Complete every task'),
      row('Oldest', 'Done with all', { status: 'approved' }),
    ]);
    expect(await suiteRenames(fake, 'org-1', 'suite-1')).toEqual([
      { from: 'Mark all as complete', to: 'Finish everything', seenIn: 'Newer' },
    ]);
  });
});
