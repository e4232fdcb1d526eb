import { StatementCancelledError } from '@argus/db';
import { ERRORS, type ErrorCode, type ValidationIssue } from '@argus/protocol';

/** An error with a code from the shared catalogue; REST answers `{detail}`, the socket sends `error`. */
export class AppError extends Error {
  readonly status: number;
  readonly detail: string | ValidationIssue[];
  constructor(
    readonly code: ErrorCode,
    detail?: string | ValidationIssue[],
    readonly headers: Record<string, string> = {},
  ) {
    const text = typeof detail === 'string' ? detail : ERRORS[code].detail;
    super(text);
    this.status = ERRORS[code].status;
    this.detail = detail ?? ERRORS[code].detail;
  }
}

/** The StatementCancelledError in `error` or its causes (drizzle wraps a failed query's error), if any. */
export function cancelledStatementOf(error: unknown): StatementCancelledError | undefined {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (cause instanceof StatementCancelledError) return cause;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The answer to a request whose database work its statement scope cancelled (docs/HISTORY.md#limits):
 * STATEMENT_TIMEOUT naming the limit (and, for a read, that nothing was changed), or REQUEST_CANCELLED
 * when its client went away (an answer nobody reads, but one that says what happened in the log).
 */
export function statementCancelledError(cancelled: StatementCancelledError, readOnly: boolean): AppError {
  if (cancelled.reason === 'aborted') return new AppError('REQUEST_CANCELLED');
  const limit = cancelled.timeoutMs === undefined ? 'its limit' : `${cancelled.timeoutMs} ms`;
  return new AppError(
    'STATEMENT_TIMEOUT',
    `The request's database work ran longer than the limit of ${limit} (DATABASE_STATEMENT_TIMEOUT_MS) and was cancelled${readOnly ? '; nothing was changed' : ''}. Try again later, or ask for less (a shorter range).`,
  );
}
