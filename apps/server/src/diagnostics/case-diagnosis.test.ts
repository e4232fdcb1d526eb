import type { TestOutcome } from '@argus/engine';
import type { CaseDiagnostics, CaseFailure } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { diagnosisColumns, diagnosticsSummary, flakyFailure } from './case-diagnosis';

const notFound: CaseFailure = {
  kind: 'not_found',
  evidence: 'No button "Pay" on the page during step 2',
  fingerprint: 'aaaaaaaaaaaaaaaa',
  step_index: 1,
};
const appError: CaseFailure = {
  ...notFound,
  kind: 'app_error',
  evidence: 'POST /pay answered 500',
  fingerprint: 'bbbbbbbbbbbbbbbb',
};

describe("a case's diagnosis on its result row", () => {
  it('labels a case that passed on a retry timing, with the last failed attempt’s fingerprint and why', () => {
    expect(flakyFailure([{ attempt: 1, failure: notFound, error: 'x' }], 2)).toEqual({
      kind: 'timing',
      evidence: 'Failed on attempt 1 (No button "Pay" on the page during step 2), passed on attempt 2',
      fingerprint: 'aaaaaaaaaaaaaaaa',
      step_index: 1,
    });
    const twice = flakyFailure(
      [
        { attempt: 1, failure: notFound, error: 'x' },
        { attempt: 2, failure: appError, error: 'y' },
      ],
      3,
    );
    expect(twice).toMatchObject({
      evidence: 'Failed on attempts 1 and 2 (POST /pay answered 500), passed on attempt 3',
      fingerprint: 'bbbbbbbbbbbbbbbb',
    });
    // No label from the engine (an older engine, a stopped attempt): none is made up.
    expect(flakyFailure([{ attempt: 1, failure: undefined, error: 'x' }], 2)).toBeUndefined();
  });

  it('counts console errors and failed requests, and writes the failure with the step and folded error', () => {
    const diagnostics = {
      console: [
        { at_ms: 1, step_index: 0, level: 'log', text: 'a', location: null },
        { at_ms: 2, step_index: 0, level: 'error', text: 'b', location: null },
        { at_ms: 3, step_index: 1, level: 'pageerror', text: 'c', location: null },
      ],
      network: [
        { status: 200, failure: null },
        { status: 503, failure: null },
        { status: null, failure: 'net::ERR_CONNECTION_REFUSED' },
      ],
      truncated: false,
    } as unknown as CaseDiagnostics;
    expect(diagnosticsSummary(diagnostics)).toEqual({
      console: 3,
      console_errors: 2,
      requests: 3,
      failed_requests: 2,
    });
    const outcome = {
      status: 'failed',
      error: 'Timed out after 5000 ms waiting for "Pay"',
      failure: notFound,
      diagnostics,
    } as unknown as TestOutcome;
    const testCase = { test_name: 'Pay', steps: ['Navigate to /', 'Click   "Pay"'] } as never;
    expect(diagnosisColumns(testCase, outcome)).toEqual({
      failure_kind: 'not_found',
      failure_evidence: notFound.evidence,
      failure_fingerprint: 'aaaaaaaaaaaaaaaa',
      failure_summary: 'Click "Pay": timed out after <n> ms waiting for "<q>"',
      failure_step: 1,
      diagnostics: { console: 3, console_errors: 2, requests: 3, failed_requests: 2 },
    });
    expect(diagnosisColumns(testCase, { status: 'passed' } as unknown as TestOutcome)).toEqual({});
  });
});
