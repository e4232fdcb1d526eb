import type { CaseDiagnostics, CaseFailure, FailureKind, NetworkEntry } from '@argus/protocol';
import { PageLeftError } from '../session/navigation-guard';
import { SignInError } from '../sign-in';
import { SchemeRefusedError } from '../web-url';
import { failureFingerprint } from './fingerprint';
import { isCheck } from './step-target';

/** What a failed case left to judge its failure by. */
export interface FailureEvidence {
  /** The failed step (0-based, as in `steps`), or null when the case failed outside a step. */
  stepIndex: number | null;
  /** The step's verb as the runner names it (`click`, `verify_text`…, `free_form`). */
  verb: string;
  /** What it acts on, as written (see `stepTarget`). */
  target: string;
  /** The step's line, for the evidence sentence. */
  line: string;
  /** Every step's line (0-based), to name the step a request belonged to. */
  lines: string[];
  /** What was thrown (its class says more than its words where the engine has one). */
  error: unknown;
  /** The case's error, secrets hidden. */
  message: string;
  diagnostics: CaseDiagnostics;
  /** The target was on the page when looked for again right after the step failed. */
  appearedAfter: boolean;
}

const MAX_EVIDENCE = 2_000;

/** Whether a step's error is worth looking for its target again (not found, or timed out). */
export function worthRecheck(message: string): boolean {
  return NOT_FOUND.test(message) || TIMED_OUT.test(message);
}

/** The site could not be reached, or the target policy or a sign-in stood in the way. */
const UNREACHABLE =
  /net::ERR_|Blocked by the target policy|signing in again failed|Signed out again while redoing/i;
const NOT_FOUND = /^No visible |No visible region/;
const TIMED_OUT = /timed out|Timeout \d+ ?ms exceeded/i;

/**
 * Labels a failure from its evidence (docs/DIAGNOSTICS.md), first match wins:
 * environment (the site unreachable, the policy refused it, signing in failed), app_error (a request
 * of the failing step answered 5xx, or the page threw), timing (the target turned up right after, or a
 * step timed out while its page was still loading), not_found, then assertion for what remains.
 */
export function classifyFailure(evidence: FailureEvidence): CaseFailure {
  const [kind, sentence] = judge(evidence);
  const text = sentence.length > MAX_EVIDENCE ? `${sentence.slice(0, MAX_EVIDENCE - 1)}…` : sentence;
  return {
    kind,
    evidence: text,
    fingerprint: failureFingerprint(evidence.verb, evidence.target, evidence.message),
    step_index: evidence.stepIndex,
  };
}

function judge(e: FailureEvidence): [FailureKind, string] {
  const step = e.stepIndex === null ? 'the case' : `step ${e.stepIndex + 1} (${e.line})`;
  const during = e.stepIndex === null ? '' : ` during ${step}`;
  const { console, network } = e.diagnostics;
  if (
    e.error instanceof SignInError ||
    e.error instanceof SchemeRefusedError ||
    e.error instanceof PageLeftError ||
    UNREACHABLE.test(e.message) ||
    /browser closed unexpectedly/i.test(e.message)
  ) {
    return ['environment', `${capital(step)} could not reach the site: ${e.message}`];
  }
  const unreached = network.find(
    (entry) => entry.step_index === e.stepIndex && entry.resource_type === 'document' && unreachable(entry),
  );
  if (unreached) return ['environment', `${capital(step)} could not reach the site: ${unreached.failure}`];
  const failedRequest = serverError(network, e.stepIndex);
  if (failedRequest) {
    const at = failedRequest.step_index ?? 0;
    const which =
      at === e.stepIndex ? during : ` during step ${at + 1}${e.lines[at] ? ` (${e.lines[at]})` : ''}`;
    return ['app_error', `${requestName(failedRequest)} answered ${failedRequest.status}${which}`];
  }
  const thrown = console.find((entry) => entry.level === 'pageerror');
  if (thrown) {
    const when = thrown.step_index === null ? '' : ` during step ${thrown.step_index + 1}`;
    return ['app_error', `The page threw "${thrown.text}"${when}; ${step} then failed: ${e.message}`];
  }
  if (e.appearedAfter) {
    return ['timing', `The target of ${step} appeared right after the step gave up waiting for it`];
  }
  if (TIMED_OUT.test(e.message) && stillLoading(network, e.stepIndex)) {
    return ['timing', `${capital(step)} timed out while its page was still loading: ${e.message}`];
  }
  if (NOT_FOUND.test(e.message))
    return ['not_found', `${capital(step)} did not find its target: ${e.message}`];
  if (!answered(network)) {
    return ['environment', `${capital(step)} failed before the site answered any page: ${e.message}`];
  }
  const how = isCheck(e.verb) ? 'the page answered, but' : 'the page answered, but the step failed:';
  return ['assertion', `${capital(step)} failed; ${how} ${e.message}`];
}

/** `POST /api/orders`: the method and the path (the query may be long; the host is in the entry). */
function requestName(entry: NetworkEntry): string {
  try {
    const url = new URL(entry.url);
    return `${entry.method} ${url.pathname}`;
  } catch {
    return `${entry.method} ${entry.url}`;
  }
}

function unreachable(entry: NetworkEntry): boolean {
  return entry.failure !== null && /net::ERR_|could not reach/i.test(entry.failure);
}

/**
 * A request answered 5xx: one of the failing step, else a page, fetch or XHR of the step before it
 * (a check fails on what the step before it sent: 'Click "Place order"', then 'Verify …').
 */
function serverError(network: NetworkEntry[], stepIndex: number | null): NetworkEntry | undefined {
  if (stepIndex === null) return undefined;
  const failed = (entry: NetworkEntry) => entry.status !== null && entry.status >= 500 && !unreachable(entry);
  return (
    network.find((entry) => entry.step_index === stepIndex && failed(entry)) ??
    network.findLast(
      (entry) =>
        entry.step_index === stepIndex - 1 &&
        ['document', 'fetch', 'xhr'].includes(entry.resource_type) &&
        failed(entry),
    )
  );
}

/** A page (document) of the failing step was still unanswered or unfinished. */
function stillLoading(network: NetworkEntry[], stepIndex: number | null): boolean {
  return network.some(
    (entry) =>
      entry.step_index === stepIndex &&
      entry.resource_type === 'document' &&
      entry.duration_ms === null &&
      entry.failure === null,
  );
}

/** Some page of the site answered (whatever its status). */
function answered(network: NetworkEntry[]): boolean {
  return network.some((entry) => entry.resource_type === 'document' && entry.status !== null);
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
