import { type ErrorCode, ErrorResponseSchema, type ValidationIssue } from '@argus/protocol';

/**
 * An HTTP call that did not succeed. `message` is the generic text (docs/PRODUCT.md#api-errors: 'Validation Error: …',
 * 'Authentication failed', 'HTTP error! status: N'); `detail` is the server's own explanation when it
 * gave one, which screens show in preference (e.g. 'Incorrect username or password').
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when the server could not be reached. */
  readonly status: number;
  /** The server's `detail` text; for a 422, 'Validation Error: ' plus the joined messages. */
  readonly detail: string | undefined;
  /** The field-level messages of a 422 answer. */
  readonly issues: ValidationIssue[];
  /** The server's error code (`FORBIDDEN_ROLE`, `ORGANIZATION_NOT_FOUND`, …), when it sent one. */
  readonly code: ErrorCode | undefined;

  constructor(
    status: number,
    message: string,
    detail?: string,
    issues: ValidationIssue[] = [],
    code?: ErrorCode,
  ) {
    super(message);
    this.status = status;
    this.detail = detail;
    this.issues = issues;
    this.code = code;
  }

  /** True for failures worth retrying: the network or the server itself (5xx). */
  get isTransient(): boolean {
    return this.status === 0 || this.status >= 500;
  }
}

/** Turns a failed answer (status and parsed JSON body, if any) into an ApiError (docs/PRODUCT.md#http-api, docs/PRODUCT.md#api-errors). */
export function describeHttpError(status: number, body: unknown): ApiError {
  const parsed = ErrorResponseSchema.safeParse(body);
  const detail = parsed.success ? parsed.data.detail : undefined;
  const code = parsed.success ? parsed.data.code : undefined;
  const issues = Array.isArray(detail) ? detail : [];

  if (status === 422) {
    const details =
      issues.length > 0
        ? issues.map((issue) => issue.msg).join(', ')
        : typeof detail === 'string'
          ? detail
          : 'Invalid request';
    const message = `Validation Error: ${details}`;
    return new ApiError(status, message, message, issues, code);
  }
  const text = typeof detail === 'string' ? detail : undefined;
  if (status === 401) return new ApiError(status, 'Authentication failed', text, [], code);
  return new ApiError(status, `HTTP error! status: ${status}`, text, [], code);
}

/** The error for a request that never got an answer (server down, offline, DNS). */
export function networkError(cause: unknown): ApiError {
  const error = new ApiError(0, 'Could not reach the server. Check your connection and try again.');
  (error as { cause?: unknown }).cause = cause;
  return error;
}

/** Best text to show a user for any error: the server's detail, else the error's message, else `fallback`. */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.detail ?? error.message ?? fallback;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
