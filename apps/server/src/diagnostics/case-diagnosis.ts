import type { NewTestResult } from '@argus/db';
import { foldFailureText, type TestOutcome } from '@argus/engine';
import type { CaseDiagnostics, CaseFailure, DiagnosticsSummary, TestCase } from '@argus/protocol';

/** The evidence and the folded text are kept to what a row and a report line show. */
const MAX_EVIDENCE = 2_000;
const MAX_SUMMARY = 500;

/** One attempt of a case that failed: which, and how (its label from the engine, its error). */
export interface FailedAttempt {
  attempt: number;
  failure: CaseFailure | undefined;
  error: string | null | undefined;
}

/** A case's console and network counts, as its result row keeps them. */
export function diagnosticsSummary(diagnostics: CaseDiagnostics): DiagnosticsSummary {
  const failedRequest = (entry: CaseDiagnostics['network'][number]) =>
    entry.failure !== null || (entry.status !== null && entry.status >= 400);
  return {
    console: diagnostics.console.length,
    console_errors: diagnostics.console.filter((e) => e.level === 'error' || e.level === 'pageerror').length,
    requests: diagnostics.network.length,
    failed_requests: diagnostics.network.filter(failedRequest).length,
  };
}

/**
 * A case that failed and then passed on a retry is a `timing` failure (docs/DIAGNOSTICS.md), its
 * evidence the attempts that failed and why, its fingerprint and step those of the last failed one, so
 * the same flakiness is recognised across runs. Undefined when no failed attempt had a label.
 */
export function flakyFailure(failed: FailedAttempt[], passedOn: number): CaseFailure | undefined {
  const labelled = failed.filter((f) => f.failure);
  const last = labelled[labelled.length - 1]?.failure;
  if (!last) return undefined;
  const numbers = failed.map((f) => f.attempt);
  const which =
    numbers.length === 1
      ? `attempt ${numbers[0]}`
      : `attempts ${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
  const why = last.evidence || failed[failed.length - 1]?.error || 'failed';
  return {
    kind: 'timing',
    evidence: `Failed on ${which} (${why}), passed on attempt ${passedOn}`.slice(0, MAX_EVIDENCE),
    fingerprint: last.fingerprint,
    step_index: last.step_index,
  };
}

/**
 * The failure's text as failure groups show it (FailureGroup.summary): the failing step as written
 * (`{{NAME}}` unfilled) and the error folded as the fingerprint folds it, so every sighting of one
 * fingerprint reads alike.
 */
function failureSummary(testCase: TestCase, outcome: TestOutcome, failure: CaseFailure): string {
  const step = failure.step_index === null ? undefined : testCase.steps[failure.step_index];
  const error = foldFailureText(outcome.error ?? failure.evidence);
  return (step ? `${step.replace(/\s+/g, ' ').trim()}: ${error}` : error).slice(0, MAX_SUMMARY);
}

type DiagnosisColumns = Pick<
  NewTestResult,
  | 'failure_kind'
  | 'failure_evidence'
  | 'failure_fingerprint'
  | 'failure_summary'
  | 'failure_step'
  | 'diagnostics'
>;

/** What a case's result row says of why it failed and of its console and network. */
export function diagnosisColumns(testCase: TestCase, outcome: TestOutcome): DiagnosisColumns {
  const { failure, diagnostics } = outcome;
  return {
    ...(failure && {
      failure_kind: failure.kind,
      failure_evidence: failure.evidence.slice(0, MAX_EVIDENCE),
      failure_fingerprint: failure.fingerprint,
      failure_summary: failureSummary(testCase, outcome, failure),
      failure_step: failure.step_index,
    }),
    ...(diagnostics && { diagnostics: diagnosticsSummary(diagnostics) }),
  };
}
