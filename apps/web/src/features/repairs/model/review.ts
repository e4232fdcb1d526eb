import type {
  ApproveRepairs,
  ApproveRepairsResult,
  CaseRepair,
  RepairStatus,
  WeakeningKind,
} from '@argus/protocol';

// What the repairs review decides before it draws (docs/REPAIRS.md): which proposals can be chosen,
// what 'Approve all' takes, what an approval sends, and the sentences the cards say.

/** A proposal a reviewer can still decide: proposed, and a repair or one that weakens a check. */
export function isDecidable(repair: CaseRepair): boolean {
  return repair.status === 'proposed' && repair.verdict !== 'bug';
}

/** 'Approve all' takes the plain repairs only: a weakening is approved one by one, confirmed. */
export function approveAllIds(repairs: readonly CaseRepair[]): string[] {
  return repairs.filter((r) => isDecidable(r) && r.verdict === 'repair').map((r) => r.id);
}

/**
 * The body of an approval: the chosen ids, still decidable, and among them the weakening ones the
 * reviewer confirmed (a weakening not confirmed is left out rather than sent to be refused).
 */
export function approvalBody(
  repairs: readonly CaseRepair[],
  chosen: ReadonlySet<string>,
  confirmedWeakening: ReadonlySet<string>,
): ApproveRepairs {
  const ids: string[] = [];
  const acceptWeakening: string[] = [];
  for (const repair of repairs) {
    if (!chosen.has(repair.id) || !isDecidable(repair)) continue;
    if (repair.verdict === 'weakens') {
      if (!confirmedWeakening.has(repair.id)) continue;
      acceptWeakening.push(repair.id);
    }
    ids.push(repair.id);
  }
  return { ids, accept_weakening: acceptWeakening };
}

/** The proposals grouped by the suite they repair: one approval saves one version of one suite. */
export function bySuite(repairs: readonly CaseRepair[]): Map<string, CaseRepair[]> {
  const groups = new Map<string, CaseRepair[]>();
  for (const repair of repairs) {
    const group = groups.get(repair.suite_id) ?? [];
    group.push(repair);
    groups.set(repair.suite_id, group);
  }
  return groups;
}

/** Seconds at a reader's precision: '3.2 s', '42 s'. */
function seconds(value: number): string {
  return value < 10 ? `${value.toFixed(1)} s` : `${Math.round(value)} s`;
}

/** 'Proved: the repaired case passed in 3.2 s' (or failed, or was not run). */
export function proofText(repair: CaseRepair): string {
  const proof = repair.evidence.proof;
  if (!proof) return 'Not proved: the repaired case was not run';
  return proof.status === 'passed'
    ? `Proved: the repaired case passed in ${seconds(proof.execution_time)}`
    : `Not proved: the repaired case failed after ${seconds(proof.execution_time)}`;
}

/** What an approval saved: 'Saved as version 4: Repaired from run 3f2a91c0: 3 cases'. */
export function savedText(result: ApproveRepairsResult): string {
  return `Saved as version ${result.version}: ${result.change}`;
}

export const STATUS_TEXT: Record<RepairStatus, string> = {
  proposed: 'Waiting for review',
  approved: 'Approved',
  rejected: 'Rejected',
  superseded: 'Superseded',
  none: 'No repair',
};

/** A decided proposal's line: 'Approved · saved in version 4', 'Rejected', 'Superseded by a newer save'. */
export function decisionText(repair: CaseRepair): string | null {
  switch (repair.status) {
    case 'approved':
      return repair.saved_version === null
        ? 'Approved'
        : `Approved · saved in version ${repair.saved_version}`;
    case 'rejected':
      return `Rejected${repair.decided_by ? ` by ${repair.decided_by}` : ''}${
        repair.decision_reason ? ` ("${repair.decision_reason}")` : ''
      }: not proposed again for the same page`;
    case 'superseded':
      return 'Superseded: the suite was saved since from another version of this case';
    default:
      return null;
  }
}

export const WEAKENING_TEXT: Record<WeakeningKind, string> = {
  check_removed: 'A check is removed',
  text_widened: 'A checked text is widened',
  count_lowered: 'A count is lowered',
  item_to_any: 'A check of one item becomes a check of any',
  check_softened: 'A check of a state becomes a check of presence',
};

/** The order the cards come in: waiting proposals first (repairs, then weakenings), then bugs, then decided ones. */
export function reviewOrder(repairs: readonly CaseRepair[]): CaseRepair[] {
  const rank = (r: CaseRepair) =>
    r.status === 'proposed' ? (r.verdict === 'repair' ? 0 : 1) : r.verdict === 'bug' ? 2 : 3;
  return repairs
    .map((repair, index) => ({ repair, index }))
    .sort((a, b) => rank(a.repair) - rank(b.repair) || a.index - b.index)
    .map(({ repair }) => repair);
}

/** 'Repairs', 'Repairs (3)': the tab and the suite entry name the proposals waiting. */
export function repairsLabel(proposed: number | undefined): string {
  return proposed ? `Repairs (${proposed})` : 'Repairs';
}
