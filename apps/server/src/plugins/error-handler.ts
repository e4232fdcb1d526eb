import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../errors';

/** Maps every failure to the spec's shapes: `{detail: string}`, or 422 `{detail: [...]}`. Never leaks a stack. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      // Routes whose spec'd client reads `error` (screenshot upload) get it beside `detail`.
      const withError = (request.routeOptions.config as { errorField?: boolean } | undefined)?.errorField;
      return reply
        .code(error.status)
        .headers(error.headers)
        .send({ detail: error.detail, code: error.code, ...(withError ? { error: error.message } : {}) });
    }
    const code = (error as FastifyError).code;
    const status = (error as FastifyError).statusCode ?? 500;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send({ detail: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' });
    }
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send({ detail: 'Unsupported content type', code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.code(400).send({
        detail: "Body cannot be empty when content-type is 'application/json'",
        code: 'MALFORMED_JSON',
      });
    }
    if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (status === 400 && error instanceof SyntaxError)) {
      return reply
        .code(400)
        .send({ detail: `Request body is not valid JSON: ${error.message}`, code: 'MALFORMED_JSON' });
    }
    if (status < 500) return reply.code(status).send({ detail: error.message, code: code ?? 'BAD_REQUEST' });
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ detail: 'Internal server error', code: 'INTERNAL' });
  });
}
