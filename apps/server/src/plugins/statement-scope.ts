import { AsyncResource } from 'node:async_hooks';
import { type StatementScope, withStatementScope } from '@argus/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The limits of each API read's database work (docs/HISTORY.md#limits): its statements are cancelled
 * once DATABASE_STATEMENT_TIMEOUT_MS have passed since it came in, or as soon as its client goes away
 * before the answer; either fails it with StatementCancelledError, which the error handler answers
 * (STATEMENT_TIMEOUT naming the limit, or REQUEST_CANCELLED). Both engines read the scope where a
 * statement starts (@argus/db statement-scope.ts).
 *
 * Only reads (GET, HEAD) under /api: a write may hold work that outlives its statements (a generation
 * runs for minutes inside its POST; a run it starts goes on in the background), and cancelling that
 * halfway would be worse than waiting. The limits end once the answer has begun: whatever the request
 * left running (a run's event stream polling the database, work it started) is no longer its own, and
 * is held only by the database's server-wide backstop.
 */

/** What each scoped request keeps between its hooks: the context to re-enter after its body is read. */
const contexts = new WeakMap<FastifyRequest, AsyncResource>();

function scoped(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  return request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/api?');
}

/** The scope of one request: limits that hold until its answer begins. */
export function requestScope(reply: FastifyReply, timeoutMs: number): StatementScope {
  const gone = new AbortController();
  const raw = reply.raw;
  // The response closes either once it is sent or when the connection drops before that.
  raw.once('close', () => {
    if (!raw.writableFinished) gone.abort();
  });
  const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : undefined;
  const answering = () => reply.sent || raw.headersSent;
  return {
    get signal() {
      return answering() ? undefined : gone.signal;
    },
    get deadline() {
      return answering() ? undefined : deadline;
    },
    timeoutMs: timeoutMs > 0 ? timeoutMs : undefined,
  };
}

/** Opens a statement scope for every API read (`timeoutMs` 0: only its client going away cancels it). */
export function registerStatementScope(app: FastifyInstance, timeoutMs: number): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!scoped(request)) return done();
    // Everything after this hook (the next hooks, the handler, what it awaits) runs inside the scope.
    withStatementScope(requestScope(reply, timeoutMs), () => {
      contexts.set(request, new AsyncResource('argus.statement-scope'));
      done();
    });
  });
  // A body is read from socket events, outside the scope: the steps after it are put back in it.
  app.addHook('preValidation', (request, _reply, done) => {
    const context = contexts.get(request);
    if (context) context.runInAsyncScope(done);
    else done();
  });
}
