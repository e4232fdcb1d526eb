import pg from 'pg';
import { currentLimits, type Limits, limitClient, passed, within } from './pg-statement-limits';

/**
 * What a PostgreSQL pool does while the server is unreachable for a while (docs/DEPLOYMENT.md#postgresql):
 * a statement that certainly did not run is tried again, with a growing wait, until `retryMs` has
 * passed; the work waits instead of failing.
 */
export interface RetryOptions {
  /** How long a statement keeps being tried while PostgreSQL is unreachable. @default 30000 */
  retryMs?: number;
  /** Once when PostgreSQL is found unreachable (not once per retry). */
  onUnreachable?: (error: Error) => void;
  /** Once when a statement succeeds again after `onUnreachable`. */
  onReachable?: () => void;
}

/**
 * Errors that prove the statement never reached a server that could run it: no connection could be
 * made (refused, no route, name not resolved, timed out connecting, the server starting up or out of
 * connections), or the server ended the session while running it (admin or crash shutdown: the
 * statement, in its own transaction, was rolled back). Such a statement may be sent again.
 */
const NOT_RUN = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  // cannot_connect_now (starting up or shutting down), too_many_connections
  '57P03',
  '53300',
  // admin_shutdown, crash_shutdown: the statement was terminated
  '57P01',
  '57P02',
]);
const NOT_RUN_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /Connection terminated due to connection timeout/i,
];

/**
 * Errors where the connection went away while the statement was on its way or running: it may have
 * run. Only a statement that changes nothing (a read) is sent again after one of these.
 */
const MAYBE_RUN = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
const MAYBE_RUN_MESSAGES = [/Connection terminated/i];

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether `error` proves that the statement did not run. */
export function didNotRun(error: unknown): boolean {
  const code = codeOf(error);
  if (code && NOT_RUN.has(code)) return true;
  // Written to a connection already reset (a pooled one that died idle): nothing left this process.
  if ((code === 'ECONNRESET' || code === 'EPIPE') && (error as { syscall?: unknown }).syscall === 'write')
    return true;
  const message = error instanceof Error ? error.message : '';
  return NOT_RUN_MESSAGES.some((pattern) => pattern.test(message));
}

/** Whether `error` is a lost connection, after which the statement may or may not have run. */
export function connectionLost(error: unknown): boolean {
  const code = codeOf(error);
  if (code && MAYBE_RUN.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return MAYBE_RUN_MESSAGES.some((pattern) => pattern.test(message));
}

/** A statement that reads only: `SELECT …` (or `WITH … SELECT` without a writing verb), `SHOW …`. */
export function readsOnly(text: string): boolean {
  const head = text.trimStart().slice(0, 10).toLowerCase();
  if (head.startsWith('select') || head.startsWith('show')) return !/\bfor\s+update\b/i.test(text);
  if (head.startsWith('with')) return !/\b(insert|update|delete|merge)\b/i.test(text);
  return false;
}

function textOf(query: unknown): string {
  if (typeof query === 'string') return query;
  const text = (query as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : '';
}

/**
 * A pg Pool whose promise-style `query` and `connect` (what drizzle and the repositories use) wait
 * out a PostgreSQL that is unreachable for a while. A transaction is not replayed once begun: its
 * `connect` waits, its BEGIN is sent again (`beginAgain`), but a connection lost after BEGIN fails
 * the transaction, which PostgreSQL rolled back.
 *
 * Inside a statement scope (statement-scope.ts) both keep its limits (pg-statement-limits.ts): the
 * statement, or the transaction's connection, is cancelled when the scope's client goes or its
 * deadline passes, and fails with StatementCancelledError; waiting for a connection or for an
 * unreachable server stops there too. Outside a scope nothing changes.
 */
export class RetryingPool extends pg.Pool {
  private readonly retryMs: number;
  private unreachable = false;

  constructor(
    private readonly config: pg.PoolConfig,
    private readonly retry: RetryOptions = {},
  ) {
    super(config);
    this.retryMs = retry.retryMs ?? 30_000;
  }

  // The overloads of pg's query cannot be restated one by one; only the promise form is changed.
  // biome-ignore lint/suspicious/noExplicitAny: pg's overloaded signature, passed through unchanged.
  override query(...args: any[]): any {
    const [query, values, callback] = args;
    if (typeof query === 'function' || typeof values === 'function' || typeof callback === 'function')
      return (super.query as (...a: unknown[]) => unknown)(...args);
    // The statement's text is looked at only when it failed, not on every query.
    const retryable = (error: unknown) =>
      didNotRun(error) || (connectionLost(error) && readsOnly(textOf(query)));
    const limits = currentLimits();
    if (!limits)
      return this.withRetry(
        () => (super.query as (q: unknown, v: unknown) => Promise<pg.QueryResult>)(query, values),
        retryable,
      );
    return this.withRetry(
      async () => {
        const client = await this.checkout(limits);
        let broken: Error | undefined;
        try {
          return await client.query(query, values);
        } catch (error) {
          // A connection that failed goes, instead of back to the pool.
          if (didNotRun(error) || connectionLost(error)) broken = error as Error;
          throw error;
        } finally {
          client.release(broken);
        }
      },
      retryable,
      limits,
    );
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's overloaded signature, passed through unchanged.
  override connect(...args: any[]): any {
    // The callback form is pg's own (its query checks a client out that way): left as it is.
    if (args.length > 0) return (super.connect as (...a: unknown[]) => unknown)(...args);
    const limits = currentLimits();
    return this.withRetry(
      () => (limits ? this.checkout(limits) : (super.connect as () => Promise<pg.PoolClient>)()),
      (error) => didNotRun(error) || connectionLost(error),
      limits,
    );
  }

  /** A client held to `limits`; waiting for one (a full pool) stops where the limits do. */
  private async checkout(limits: Limits): Promise<pg.PoolClient> {
    const pending = (super.connect as () => Promise<pg.PoolClient>)();
    const client = await within(limits, pending, (late) => late.release());
    return limitClient(client, limits, (pid) => this.cancelBackend(pid));
  }

  /**
   * Cancels what backend `pid` is running, from a connection of its own: the pool's may all be busy
   * with the very statements to cancel. When it cannot connect, statement_timeout still ends the
   * statement at its deadline.
   */
  private async cancelBackend(pid: number): Promise<void> {
    const canceller = new pg.Client({ ...this.config, connectionTimeoutMillis: 5_000 });
    canceller.on('error', () => {});
    try {
      await canceller.connect();
      await canceller.query('SELECT pg_cancel_backend($1)', [pid]);
    } finally {
      await canceller.end().catch(() => {});
    }
  }

  /**
   * Runs a transaction (drizzle's `transaction`), begun again when its BEGIN failed because the server
   * was unreachable or the connection checked out had died: nothing of it had run.
   */
  beginAgain<T>(transaction: () => Promise<T>): Promise<T> {
    return this.withRetry(transaction, (error) => {
      const { query, cause } = (error ?? {}) as { query?: unknown; cause?: unknown };
      return query === 'begin' && (didNotRun(cause) || connectionLost(cause));
    });
  }

  private async withRetry<T>(
    attempt: () => Promise<T>,
    retryable: (error: unknown) => boolean,
    limits?: Limits,
  ): Promise<T> {
    const deadline = Date.now() + this.retryMs;
    for (let tries = 1; ; tries++) {
      try {
        const result = await attempt();
        if (this.unreachable) {
          this.unreachable = false;
          this.retry.onReachable?.();
        }
        return result;
      } catch (error) {
        if (this.ending || !retryable(error) || Date.now() >= deadline) throw error;
        // A request's statement waits for the server no longer than its limits allow.
        const over = limits && passed(limits);
        if (over) throw Object.assign(over, { cause: error });
        if (!this.unreachable) {
          this.unreachable = true;
          this.retry.onUnreachable?.(error as Error);
        }
        const left = Math.min(deadline, limits?.deadline ?? deadline) - Date.now();
        const wait = Math.min(100 * 2 ** Math.min(tries, 5), 2_000, Math.max(0, left));
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }
}
