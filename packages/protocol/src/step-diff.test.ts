import { describe, expect, it } from 'vitest';
import { diffSteps } from './step-diff';

/** The diff as `  line`, `- line`, `+ line` rows. */
const rows = (before: string[], after: string[]) =>
  diffSteps(before, after).map((d) => `${{ same: ' ', removed: '-', added: '+' }[d.op]} ${d.line}`);

describe('diffSteps', () => {
  it('keeps equal steps, with each line at its index before and after', () => {
    expect(diffSteps(['a', 'b'], ['a', 'b'])).toEqual([
      { op: 'same', line: 'a', before: 0, after: 0 },
      { op: 'same', line: 'b', before: 1, after: 1 },
    ]);
  });

  it('a replaced step reads as removed then added, with indices on their own side only', () => {
    expect(
      diffSteps(
        ['Navigate to /', 'Click "Add"', 'Verify text "x" is visible'],
        ['Navigate to /', 'Click "Create task"', 'Verify text "x" is visible'],
      ),
    ).toEqual([
      { op: 'same', line: 'Navigate to /', before: 0, after: 0 },
      { op: 'removed', line: 'Click "Add"', before: 1, after: null },
      { op: 'added', line: 'Click "Create task"', before: null, after: 1 },
      { op: 'same', line: 'Verify text "x" is visible', before: 2, after: 2 },
    ]);
  });

  it('an inserted step is added between the kept ones', () => {
    expect(rows(['open', 'click Add', 'verify'], ['open', 'click More', 'click Add', 'verify'])).toEqual([
      '  open',
      '+ click More',
      '  click Add',
      '  verify',
    ]);
  });

  it('a run of changes lists every removed line before the added ones', () => {
    expect(rows(['a', 'x', 'b', 'y', 'c'], ['a', 'p', 'q', 'c'])).toEqual([
      '  a',
      '- x',
      '- b',
      '- y',
      '+ p',
      '+ q',
      '  c',
    ]);
  });

  it('from or to nothing', () => {
    expect(rows([], ['a', 'b'])).toEqual(['+ a', '+ b']);
    expect(rows(['a', 'b'], [])).toEqual(['- a', '- b']);
    expect(diffSteps([], [])).toEqual([]);
  });

  it('spaces around a line do not make it another; the line shown is as written', () => {
    expect(diffSteps(['  Click "Add" '], ['Click "Add"'])).toEqual([
      { op: 'same', line: '  Click "Add" ', before: 0, after: 0 },
    ]);
  });

  it('keeps the longest common run of steps (moved lines are removed and added once)', () => {
    const d = diffSteps(['a', 'b', 'c', 'd'], ['b', 'c', 'd', 'a']);
    expect(d.filter((l) => l.op === 'same').map((l) => l.line)).toEqual(['b', 'c', 'd']);
    expect(d.filter((l) => l.op !== 'same')).toHaveLength(2);
  });

  // No timing here (a busy machine would fail it); no bench under bench/ times diffSteps either.
  it('500-line cases changed throughout: every line is accounted for once, only the changed ones differ', () => {
    const before = Array.from({ length: 500 }, (_, i) => `Verify text "${i}" is visible`);
    const after = before.map((line, i) => (i % 7 === 0 ? `Click "${i}"` : line));
    const d = diffSteps(before, after);
    expect(d.filter((l) => l.before !== null).map((l) => l.before)).toEqual(before.map((_, i) => i));
    expect(d.filter((l) => l.after !== null).map((l) => l.after)).toEqual(after.map((_, i) => i));
    expect(d.filter((l) => l.op === 'removed').map((l) => l.before)).toEqual(
      before.map((_, i) => i).filter((i) => i % 7 === 0),
    );
    expect(d.filter((l) => l.op === 'added').map((l) => l.line)).toEqual(after.filter((_, i) => i % 7 === 0));
    expect(d.filter((l) => l.op === 'same')).toHaveLength(500 - 72);
  });
});
