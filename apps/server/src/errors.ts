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
