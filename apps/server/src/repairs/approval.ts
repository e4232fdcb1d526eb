import type { CaseRepairRow } from '@argus/db';
import type { SavedSuite, TestCase } from '@argus/protocol';
import { AppError } from '../errors';

// Approving repairs (docs/REPAIRS.md): which of the chosen proposals may be saved, and the suite's
// cases once they are. Each refusal names the case and says why, so a reviewer knows what to do.

/** Runs named in a change note at most (the note's limit is 500 characters). */
const RUNS_NAMED = 5;

const conflict = (detail: string) => new AppError('REPAIR_CONFLICT', detail);

/** The same steps, as a saved case's are compared with the repair's `before` (spaces around ignored). */
export function sameSteps(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => line.trim() === b[i]?.trim());
}

/** Where the repaired case is in the suite now: at its place when it is still there, else by name. */
function caseAt(cases: TestCase[], row: CaseRepairRow): number {
  if (cases[row.case_index]?.test_name === row.case_name) return row.case_index;
  return cases.findIndex((c) => c.test_name === row.case_name);
}

/** Refuses a proposal that cannot be approved as it stands. */
function checkDecidable(row: CaseRepairRow, acceptWeakening: ReadonlySet<string>): void {
  const name = `"${row.case_name}"`;
  if (row.verdict === 'bug')
    throw conflict(`${name} looks like a bug, not a change of the app: there is no repair to approve`);
  if (row.status !== 'proposed')
    throw conflict(`The repair of ${name} is ${row.status}: only a proposed repair is approved`);
  if (row.verdict === 'weakens' && !acceptWeakening.has(row.id))
    throw conflict(
      `The repair of ${name} weakens an assertion: approve it only by naming it in accept_weakening`,
    );
}

/**
 * The suite's cases with the chosen repairs in place, or a REPAIR_CONFLICT naming the first that
 * cannot be: a bug, a decided proposal, a weakening not accepted, two repairs of one case, a case no
 * longer in the suite or whose saved steps are no longer the repair's `before`.
 */
export function repairedCases(
  suite: Pick<SavedSuite, 'test_cases'>,
  rows: CaseRepairRow[],
  acceptWeakening: ReadonlySet<string>,
): TestCase[] {
  const cases = suite.test_cases.map((c) => ({ ...c }));
  const taken = new Set<number>();
  for (const row of rows) {
    checkDecidable(row, acceptWeakening);
    const name = `"${row.case_name}"`;
    const at = caseAt(cases, row);
    if (at < 0) throw conflict(`${name} is no longer in the suite`);
    if (taken.has(at)) throw conflict(`Two repairs of ${name} were chosen: choose one`);
    if (!sameSteps(cases[at].steps, row.steps_before))
      throw conflict(
        `${name} was changed since run ${row.test_run_id.slice(0, 8)} failed: its repair was made from other steps`,
      );
    taken.add(at);
    cases[at] = { ...cases[at], steps: [...row.steps_after] };
  }
  return cases;
}

/** The new version's note: 'Repaired from run 3f2a91c0: 3 cases' (several runs: 'from runs a, b'). */
export function repairNote(rows: Pick<CaseRepairRow, 'test_run_id'>[]): string {
  const runs = [...new Set(rows.map((r) => r.test_run_id.slice(0, 8)))];
  const named =
    runs.length > RUNS_NAMED
      ? `${runs.slice(0, RUNS_NAMED).join(', ')} and ${runs.length - RUNS_NAMED} more`
      : runs.join(', ');
  const cases = `${rows.length} ${rows.length === 1 ? 'case' : 'cases'}`;
  return `Repaired from ${runs.length === 1 ? 'run' : 'runs'} ${named}: ${cases}`;
}
