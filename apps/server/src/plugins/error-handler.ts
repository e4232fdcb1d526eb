import { ERROR_CODES, ERRORS, type ErrorCode } from '@argus/protocol';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, cancelledStatementOf, statementCancelledError } from '../errors';

const MALFORMED_JSON_ERROR = 'Malformed JSON';

/** The body of an error answer, and the short `error` text some routes' clients read. */
interface ErrorAnswer {
  status: number;
  detail: unknown;
  code: ErrorCode;
  error: string;
  headers?: Record<string, string>;
}

/** Fastify's own failures (body parsing, limits), in the spec's shapes. */
function fromFastify(error: FastifyError): ErrorAnswer {
  const status = error.statusCode ?? 500;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        detail: 'Request body is too large',
        code: 'PAYLOAD_TOO_LARGE',
        error: 'Payload too large',
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        detail: 'Unsupported content type',
        code: 'UNSUPPORTED_MEDIA_TYPE',
        error: 'Unsupported content type',
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return {
        status: 400,
        detail: "Body cannot be empty when content-type is 'application/json'",
        code: 'MALFORMED_JSON',
        error: MALFORMED_JSON_ERROR,
      };
  }
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (status === 400 && error instanceof SyntaxError)) {
    return {
      status: 400,
      detail: `Request body is not valid JSON: ${error.message}`,
      code: 'MALFORMED_JSON',
      error: MALFORMED_JSON_ERROR,
    };
  }
  if (status < 500)
    return { status, detail: error.message, code: codeForStatus(status), error: error.message };
  return { status: 500, detail: 'Internal server error', code: 'INTERNAL', error: 'Internal server error' };
}

/** The catalogue's code for a framework failure of this status (never the framework's own `FST_…` code). */
function codeForStatus(status: number): ErrorCode {
  return ERROR_CODES.find((code) => ERRORS[code].status === status) ?? 'BAD_REQUEST';
}

function send(request: FastifyRequest, reply: FastifyReply, answer: ErrorAnswer) {
  // Routes whose spec'd client reads `error` (screenshot upload) get it beside `detail`, whatever failed.
  const withError = request.routeOptions.config?.errorField;
  return reply
    .code(answer.status)
    .headers(answer.headers ?? {})
    .send({ detail: answer.detail, code: answer.code, ...(withError ? { error: answer.error } : {}) });
}

/** Maps every failure to the spec's shapes: `{detail: string}`, or 422 `{detail: [...]}`. Never leaks a stack. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError | AppError, request, reply) => {
    let error = thrown;
    // A statement its request's limits cancelled (plugins/statement-scope.ts): expected, so a warning.
    const cancelled = cancelledStatementOf(thrown);
    if (cancelled) {
      request.log.warn({ reason: cancelled.reason }, cancelled.message);
      error = statementCancelledError(cancelled, request.method === 'GET' || request.method === 'HEAD');
    }
    if (error instanceof AppError) {
      if (error.status >= 500 && !cancelled) request.log.error({ err: error }, error.message);
      return send(request, reply, {
        status: error.status,
        detail: error.detail,
        code: error.code,
        // The upload client reads `error`; a body that failed to parse says so in the same words whoever parsed it.
        error: error.code === 'MALFORMED_JSON' ? MALFORMED_JSON_ERROR : error.message,
        headers: error.headers,
      });
    }
    const answer = fromFastify(error as FastifyError);
    if (answer.status >= 500) request.log.error({ err: error }, 'unhandled error');
    return send(request, reply, answer);
  });
}
