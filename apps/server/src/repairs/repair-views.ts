import type { CaseRepairRow } from '@argus/db';
import {
  type CaseRepair,
  CaseRepairSchema,
  type RepairStatus,
  type RepairVerdict,
  type RunCaseResult,
  type RunRepairSummary,
} from '@argus/protocol';

// A repair row as the API, the run report and the JUnit report show it (docs/REPAIRS.md).

/** The run page's repairs tab, relative to the server (runPagePath of apps/web/src/lib/run-links.ts). */
export function reviewPath(runId: string): string {
  return `/history/runs/${encodeURIComponent(runId)}?tab=repairs`;
}

/** Where a repair is reviewed: absolute on PUBLIC_URL, else relative to the server. */
export function reviewUrl(publicUrl: string | null | undefined, runId: string, repairId?: string): string {
  const origin = (publicUrl ?? '').replace(/\/+$/, '');
  const one = repairId ? `&repair=${encodeURIComponent(repairId)}` : '';
  return `${origin}${reviewPath(runId)}${one}`;
}

/** The row as CaseRepairSchema answers it (its JSON columns checked on the way out). */
export function toCaseRepair(row: CaseRepairRow): CaseRepair {
  return CaseRepairSchema.parse({
    id: row.id,
    run_id: row.test_run_id,
    project_id: row.project_id,
    suite_id: row.suite_id,
    suite_version: row.suite_version,
    case_name: row.case_name,
    case_index: row.case_index,
    result_id: row.result_id,
    verdict: row.verdict,
    status: row.status,
    step_index: row.step_index,
    before: row.steps_before,
    after: row.steps_after,
    diff: row.diff,
    weakenings: row.weakenings,
    evidence: row.evidence,
    before_screenshot_id: row.before_screenshot_id,
    after_screenshot_id: row.after_screenshot_id,
    created_at: row.created_at.toISOString(),
    decided_by: row.decided_by,
    decided_at: row.decided_at?.toISOString() ?? null,
    decision_reason: row.decision_reason ?? null,
    saved_version: row.saved_version,
  });
}

/** A list's count of proposals still waiting for review. */
export function waiting(repairs: Pick<CaseRepair, 'status'>[]): number {
  return repairs.filter((r) => r.status === 'proposed').length;
}

/** A case's verdict in the run report (`repair` of RunCaseResult). */
export function caseRepairOf(
  row: CaseRepairRow,
  publicUrl: string | null | undefined,
): NonNullable<RunCaseResult['repair']> {
  const summary = (row.evidence as { summary?: unknown }).summary;
  return {
    id: row.id,
    verdict: row.verdict as RepairVerdict,
    status: row.status as RepairStatus,
    summary: typeof summary === 'string' ? summary : '',
    review_url: reviewUrl(publicUrl, row.test_run_id, row.id),
  };
}

/** A run's repairs in its report: proposals waiting for review and failures labelled a bug. */
export function runRepairSummary(
  runId: string,
  rows: Pick<CaseRepairRow, 'status' | 'verdict'>[],
): RunRepairSummary {
  return {
    proposed: rows.filter((r) => r.status === 'proposed').length,
    bugs: rows.filter((r) => r.verdict === 'bug').length,
    review_path: reviewPath(runId),
  };
}
