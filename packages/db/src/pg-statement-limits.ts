import type pg from 'pg';
import { StatementCancelledError, statementScope } from './statement-scope';

/**
 * How PostgreSQL statements keep the limits of their request's scope (statement-scope.ts,
 * docs/HISTORY.md#limits). A statement made in a scope runs on a client checked out for it, with
 * `statement_timeout` set to the time left, so PostgreSQL itself ends it at the deadline even if this
 * process stalls or dies; while it runs, the scope's signal (its client gone) or the deadline passing
 * between a transaction's statements cancels the backend from a connection of its own.
 */

/** The limits read once where a statement (or a transaction's checkout) starts. */
export interface Limits {
  signal?: AbortSignal;
  deadline?: number;
  timeoutMs?: number;
}

/** PostgreSQL's query_canceled: statement_timeout, pg_cancel_backend, a cancel request. */
const QUERY_CANCELED = '57014';

/** After the deadline, how long PostgreSQL's own statement_timeout is given before the backend is cancelled. */
const CANCEL_GRACE_MS = 20;

/** The scope's limits as they stand now, or undefined outside a scope (or in one that limits nothing). */
export function currentLimits(): Limits | undefined {
  const scope = statementScope();
  if (!scope) return undefined;
  const { signal, deadline, timeoutMs } = scope;
  if (!signal && deadline === undefined) return undefined;
  return { signal, deadline, timeoutMs };
}

/** The cancellation the limits call for now (the signal aborted, the deadline passed), or undefined. */
export function passed(limits: Limits): StatementCancelledError | undefined {
  if (limits.signal?.aborted) return new StatementCancelledError('aborted');
  if (limits.deadline !== undefined && Date.now() >= limits.deadline)
    return new StatementCancelledError('timeout', limits.timeoutMs);
  return undefined;
}

/**
 * `pending`, or a StatementCancelledError as soon as the limits pass while it is still waited on (a
 * checkout queued behind a full pool); `abandon` gets its value when it comes too late.
 */
export function within<T>(limits: Limits, pending: Promise<T>, abandon: (late: T) => void): Promise<T> {
  const now = passed(limits);
  if (now) {
    pending.then(abandon, () => {});
    return Promise.reject(now);
  }
  return new Promise<T>((resolve, reject) => {
    let over = false;
    const stop = (reason: 'timeout' | 'aborted') => {
      if (over) return;
      over = true;
      cleanup();
      reject(new StatementCancelledError(reason, limits.timeoutMs));
    };
    const onAbort = () => stop('aborted');
    const timer =
      limits.deadline === undefined
        ? undefined
        : setTimeout(() => stop('timeout'), Math.max(0, limits.deadline - Date.now()));
    limits.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => {
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onAbort);
    };
    pending.then(
      (value) => {
        if (over) return abandon(value);
        over = true;
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        if (over) return;
        over = true;
        cleanup();
        reject(error);
      },
    );
  });
}

/**
 * PostgreSQL's cancellation of a statement (57014) as the scope's StatementCancelledError: the
 * statement timeout, or the cancel this module sent (`sentFor`). Any other error, and a cancel
 * nobody here asked for (an administrator's), is returned as it is.
 */
export function asCancellation(error: unknown, limits: Limits, sentFor?: 'timeout' | 'aborted'): unknown {
  if ((error as { code?: unknown } | null)?.code !== QUERY_CANCELED) return error;
  const message = error instanceof Error ? error.message : '';
  const reason = sentFor ?? (/statement timeout/i.test(message) ? 'timeout' : undefined);
  if (!reason) return error;
  return Object.assign(new StatementCancelledError(reason, limits.timeoutMs), { cause: error });
}

function promiseForm(args: unknown[]): boolean {
  return !args.some((arg) => typeof arg === 'function');
}

function textOf(query: unknown): string {
  if (typeof query === 'string') return query;
  const text = (query as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : '';
}

/**
 * `client`, just checked out, held to `limits` until released: `statement_timeout` set to the time
 * left (reset on release), each statement refused once the limits have passed (except the ROLLBACK
 * that ends a transaction), and the backend cancelled (`cancel(pid)`) when the signal aborts or the
 * deadline passes during a statement. Released only once such a cancel is done, so it can never reach
 * the statement of whoever checks the connection out next.
 */
export async function limitClient(
  client: pg.PoolClient,
  limits: Limits,
  cancel: (pid: number) => Promise<void>,
): Promise<pg.PoolClient> {
  const release = client.release;
  const timed = limits.deadline !== undefined;
  if (timed) {
    const left = Math.max(1, (limits.deadline as number) - Date.now());
    try {
      await client.query(`SET statement_timeout = ${Math.ceil(left)}`);
    } catch (error) {
      release(error as Error);
      throw asCancellation(error, limits);
    }
  }
  let sentFor: 'timeout' | 'aborted' | undefined;
  let cancelling: Promise<void> | undefined;
  const cancelNow = (reason: 'timeout' | 'aborted') => {
    if (sentFor) return;
    sentFor = reason;
    const pid = (client as unknown as { processID?: number }).processID;
    if (typeof pid === 'number') cancelling = cancel(pid).catch(() => {});
  };
  const onAbort = () => cancelNow('aborted');
  limits.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = timed
    ? setTimeout(() => cancelNow('timeout'), (limits.deadline as number) - Date.now() + CANCEL_GRACE_MS)
    : undefined;

  // biome-ignore lint/suspicious/noExplicitAny: pg's overloaded signature, passed through unchanged.
  const query = (...args: any[]): any => {
    if (!promiseForm(args)) return (client.query as (...a: unknown[]) => unknown)(...args);
    const refused = /^\s*rollback\b/i.test(textOf(args[0])) ? undefined : passed(limits);
    if (refused) return Promise.reject(refused);
    return (client.query as (...a: unknown[]) => Promise<pg.QueryResult>)(...args).catch((error: unknown) => {
      throw asCancellation(error, limits, sentFor);
    });
  };
  let released = false;
  const limitedRelease = (error?: Error | boolean) => {
    if (released) return release(error);
    released = true;
    clearTimeout(timer);
    limits.signal?.removeEventListener('abort', onAbort);
    void (async () => {
      await cancelling;
      if (error || !timed) return release(error);
      try {
        await client.query('RESET statement_timeout');
      } catch (failed) {
        return release(failed as Error);
      }
      release();
    })();
  };
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') return query;
      if (property === 'release') return limitedRelease;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
