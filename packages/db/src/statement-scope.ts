import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The limits of the database work done on behalf of one request (docs/HISTORY.md#limits): each
 * statement it makes is cancelled when `signal` aborts (its client went away) or when it would end after
 * `deadline`. Carried by AsyncLocalStorage, so repositories take no extra parameter: the server opens a
 * scope per request and both engines read it where a statement starts.
 */
export interface StatementScope {
  /** Aborted when the request's client has gone: its statements are cancelled. */
  signal?: AbortSignal;
  /** Epoch milliseconds after which a statement still running is cancelled. */
  deadline?: number;
  /** The limit `deadline` was made from, named in the error. */
  timeoutMs?: number;
}

const scopes = new AsyncLocalStorage<StatementScope>();

/** Runs `work` with `scope` as the limits of every statement it makes (nested scopes replace outer ones). */
export function withStatementScope<T>(scope: StatementScope, work: () => T): T {
  return scopes.run(scope, work);
}

/** The limits of the statement about to start, or undefined outside any scope (background work). */
export function statementScope(): StatementScope | undefined {
  return scopes.getStore();
}

/** A statement stopped by its scope: past its deadline (`timeout`) or its client gone (`aborted`). */
export class StatementCancelledError extends Error {
  constructor(
    readonly reason: 'timeout' | 'aborted',
    readonly timeoutMs?: number,
  ) {
    super(
      reason === 'timeout'
        ? `The database statement ran longer than the limit of ${timeoutMs} ms and was cancelled`
        : 'The database statement was cancelled: its request has gone',
    );
    this.name = 'StatementCancelledError';
  }
}
