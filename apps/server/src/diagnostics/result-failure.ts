import type { TestResultRow } from '@argus/db';
import {
  type CaseFailure,
  type DiagnosticsSummary,
  DiagnosticsSummarySchema,
  FailureKindSchema,
} from '@argus/protocol';

type DiagnosisColumns = Pick<
  TestResultRow,
  'failure_kind' | 'failure_evidence' | 'failure_fingerprint' | 'failure_step' | 'diagnostics'
>;

/** A stored result's failure label as clients see it; null when it has none (passed, or older). */
export function caseFailureOf(row: DiagnosisColumns): CaseFailure | null {
  const kind = FailureKindSchema.safeParse(row.failure_kind);
  if (!kind.success || !row.failure_fingerprint) return null;
  return {
    kind: kind.data,
    evidence: row.failure_evidence ?? '',
    fingerprint: row.failure_fingerprint,
    step_index: row.failure_step,
  };
}

/** A stored result's console and network counts; null when none were recorded. */
export function diagnosticsSummaryOf(row: DiagnosisColumns): DiagnosticsSummary | null {
  const parsed = DiagnosticsSummarySchema.safeParse(row.diagnostics);
  return parsed.success ? parsed.data : null;
}
