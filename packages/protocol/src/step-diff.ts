import type { StepDiffLine } from './repairs';

/**
 * A case's steps before and after (a repair, a regenerated case) as a line diff: the longest common
 * subsequence of lines kept, the rest removed or added, removed lines before added ones where a run of
 * changes meets (what a reviewer reads as "this became that"). Lines are compared with surrounding
 * spaces ignored; the line shown is the one as written.
 *
 * Cost: the common head and tail are skipped, then one table of (n+1)·(m+1) lengths; a case has at
 * most 500 steps, so at most about a quarter of a million cells (a millisecond or two).
 */
export function diffSteps(before: string[], after: string[]): StepDiffLine[] {
  const a = before.map((line) => line.trim());
  const b = after.map((line) => line.trim());
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }

  const out: StepDiffLine[] = [];
  for (let i = 0; i < head; i++) out.push({ op: 'same', line: before[i], before: i, after: i });
  out.push(...diffMiddle(before, after, a, b, head, tail));
  for (let k = tail; k > 0; k--) {
    const i = before.length - k;
    const j = after.length - k;
    out.push({ op: 'same', line: before[i], before: i, after: j });
  }
  return out;
}

/** Cells of the length table at most: 2000 lines each way. */
const MAX_CELLS = 4_000_000;

const removedLine = (line: string, index: number): StepDiffLine => ({
  op: 'removed',
  line,
  before: index,
  after: null,
});
const addedLine = (line: string, index: number): StepDiffLine => ({
  op: 'added',
  line,
  before: null,
  after: index,
});

/** The part between the common head and tail, by a table of suffix LCS lengths. */
function diffMiddle(
  before: string[],
  after: string[],
  a: string[],
  b: string[],
  head: number,
  tail: number,
): StepDiffLine[] {
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  const width = m + 1;
  // Beyond what a case can hold (500 steps each way): the middle as one change, not a table the size
  // of the product of both.
  if (n * m > MAX_CELLS) {
    return [
      ...before.slice(head, head + n).map((line, k) => removedLine(line, head + k)),
      ...after.slice(head, head + m).map((line, k) => addedLine(line, head + k)),
    ];
  }
  // lcs[i * width + j]: the LCS length of a[head+i..] and b[head+j..] (within the middle).
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[head + i] === b[head + j]
          ? lcs[(i + 1) * width + j + 1] + 1
          : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
    }
  }

  const out: StepDiffLine[] = [];
  let removed: StepDiffLine[] = [];
  let added: StepDiffLine[] = [];
  // A run of changes is written removed-first, whatever order the walk met them in.
  const flush = () => {
    out.push(...removed, ...added);
    removed = [];
    added = [];
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    const ai = head + i;
    const bj = head + j;
    if (i < n && j < m && a[ai] === b[bj]) {
      flush();
      out.push({ op: 'same', line: before[ai], before: ai, after: bj });
      i++;
      j++;
    } else if (j >= m || (i < n && lcs[(i + 1) * width + j] >= lcs[i * width + j + 1])) {
      removed.push(removedLine(before[ai], ai));
      i++;
    } else {
      added.push(addedLine(after[bj], bj));
      j++;
    }
  }
  flush();
  return out;
}
