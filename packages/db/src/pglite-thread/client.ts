import type { Results } from '@electric-sql/pglite';
import { StatementCancelledError, type StatementScope, statementScope } from '../statement-scope';
import type { Reply, Request } from './protocol';
import { fromWireError } from './protocol';
import { startThread, type Thread } from './thread';

// The main thread's side of the embedded database (docs/DECISIONS.md#embedded-database): the subset of
// PGlite's API that drizzle-orm/pglite uses (`query`, `exec`, `transaction`), each call sent to the
// worker that owns PGlite (worker.ts). Like PGlite, it runs one statement at a time: calls wait here,
// in order, so one still waiting can be dropped when its request's limits (statement-scope.ts) run
// out, and one running past them is stopped the only way PGlite can be: its thread is terminated and
// a new one opens the same directory, the calls still waiting then running there as they would have.

type Unsent = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never;

/** A transaction as the main thread holds it: its statements wait in its own lane. */
interface TxState {
  /** The worker's id for it, once begun. */
  id?: number;
  lane: Call[];
  /** Set when it can no longer commit (its thread was stopped): every later statement fails so. */
  dead?: Error;
}

interface Call {
  request: Unsent;
  lane: Call[];
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Removes its deadline timer and abort listener. */
  detach(): void;
  /** A `begin`: the transaction the worker holds once it is sent. */
  opens?: TxState;
}

export interface PgliteThreadOptions {
  /** The data directory; none for an in-memory database. */
  dir?: string;
  /** A data directory dump to open when `dir` holds no database yet. */
  dump?: Blob;
}

export interface ThreadTransaction {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
}

export interface QueryOptions {
  rowMode?: 'object' | 'array';
  /** Only identity parsers (drizzle's): the worker applies the same ones to these types. */
  parsers?: Record<number, (value: string, type: number) => unknown>;
}

/** The database's thread stopped on its own; what was waiting on it fails with this. */
export class PgliteThreadDiedError extends Error {
  override readonly name = 'PgliteThreadDiedError';
}

const PROBE = '\u0000argus-parser-probe';

/** The type ids of `parsers`, each checked to be an identity (a function cannot cross to the worker). */
function identityTypes(parsers: QueryOptions['parsers']): number[] {
  if (!parsers) return [];
  return Object.entries(parsers).map(([type, parse]) => {
    if (parse(PROBE, Number(type)) !== PROBE) {
      throw new Error(`Only identity parsers reach the embedded database's thread (type ${type})`);
    }
    return Number(type);
  });
}

/** Why `scope` stops a statement now, if it does. */
function expired(scope: StatementScope): StatementCancelledError | undefined {
  if (scope.signal?.aborted) return new StatementCancelledError('aborted');
  if (scope.deadline !== undefined && Date.now() >= scope.deadline) {
    return new StatementCancelledError('timeout', scope.timeoutMs);
  }
  return undefined;
}

export class PgliteThreadClient {
  readonly #options: PgliteThreadOptions;
  #thread: Thread | undefined;
  #ready = false;
  /** A thread being started (at open, after a restart, or for the first call after one died). */
  #starting: Promise<void> | undefined;
  /** Calls outside any transaction, waiting their turn. */
  readonly #lane: Call[] = [];
  /** The transaction the worker holds, if any: only its lane is served until it ends. */
  #tx: TxState | undefined;
  #running: { id: number; call: Call; abandoned: boolean } | undefined;
  #nextId = 1;
  #closed = false;
  /** An in-memory database whose thread died: its data went with it. */
  #lost: Error | undefined;

  private constructor(options: PgliteThreadOptions) {
    this.#options = options;
  }

  /** Opens the database in a new worker thread; rejects as PGlite.create would. */
  static async open(options: PgliteThreadOptions): Promise<PgliteThreadClient> {
    const client = new PgliteThreadClient(options);
    const dump = options.dump ? await options.dump.arrayBuffer() : undefined;
    await client.#start(dump);
    return client;
  }

  get closed(): boolean {
    return this.#closed;
  }

  query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<Results<T>> {
    return this.#statementOf(undefined, sql, params, options) as Promise<Results<T>>;
  }

  exec(sql: string): Promise<Results[]> {
    return this.#enqueue({ type: 'exec', sql }, this.#lane, statementScope()) as Promise<Results[]>;
  }

  /** Commits when `run` resolves, rolls back when it throws; other calls wait until then. */
  async transaction<T>(run: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const state: TxState = { lane: [] };
    state.id = (await this.#enqueue({ type: 'begin' }, this.#lane, statementScope(), state)) as number;
    const tx: ThreadTransaction = {
      query: <R>(sql: string, params: unknown[] = [], options: QueryOptions = {}) =>
        this.#statementOf(state, sql, params, options) as Promise<Results<R>>,
      exec: (sql: string) => this.#inTx(state, { type: 'exec', sql, tx: state.id }) as Promise<Results[]>,
    };
    let value: T;
    try {
      value = await run(tx);
    } catch (error) {
      if (!state.dead)
        await this.#enqueue({ type: 'end', tx: state.id, commit: false }, state.lane).catch(() => {});
      throw error;
    }
    if (state.dead) throw state.dead;
    await this.#enqueue({ type: 'end', tx: state.id, commit: true }, state.lane);
    return value;
  }

  /**
   * Resolves when the database can be reached. While its thread is at work (a statement running, a
   * transaction held) it is: the answer does not wait behind that work, as a second connection to a
   * busy PostgreSQL server would not.
   */
  async ping(): Promise<void> {
    if (this.#closed) throw new Error('The embedded database is closed');
    if (this.#lost) throw this.#lost;
    if (this.#running || this.#tx) return;
    await this.query('SELECT 1');
  }

  /** The whole data directory as a tar. */
  async dump(): Promise<Blob> {
    const tar = (await this.#enqueue({ type: 'dump' }, this.#lane)) as ArrayBuffer;
    return new Blob([tar], { type: 'application/x-tar' });
  }

  /** Runs what is already waiting, then closes PGlite and ends the thread. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#starting?.catch(() => {});
    if (this.#thread) await this.#push({ type: 'close' }, this.#lane).catch(() => {});
    const thread = this.#thread;
    this.#thread = undefined;
    if (thread) {
      thread.stopping = true;
      await thread.worker.terminate();
    }
  }

  #statementOf(state: TxState | undefined, sql: string, params: unknown[], options: QueryOptions) {
    let types: number[];
    try {
      types = identityTypes(options.parsers);
    } catch (error) {
      return Promise.reject(error);
    }
    const request: Unsent = {
      type: 'query',
      sql,
      params,
      rowMode: options.rowMode ?? 'object',
      identityTypes: types,
      ...(state ? { tx: state.id } : {}),
    };
    return state ? this.#inTx(state, request) : this.#enqueue(request, this.#lane, statementScope());
  }

  #inTx(state: TxState, request: Unsent): Promise<unknown> {
    if (state.dead) return Promise.reject(state.dead);
    return this.#enqueue(request, state.lane, statementScope());
  }

  #enqueue(request: Unsent, lane: Call[], scope?: StatementScope, opens?: TxState): Promise<unknown> {
    // `close` is queued behind what waits and is the last call taken; a transaction already open
    // still runs to its end (its statements and its commit are in its own lane), or close would wait
    // for ever behind it.
    if (this.#closed && lane === this.#lane)
      return Promise.reject(new Error('The embedded database is closed'));
    if (this.#lost) return Promise.reject(this.#lost);
    const stopped = scope && expired(scope);
    if (stopped) return Promise.reject(stopped);
    return this.#push(request, lane, scope, opens);
  }

  #push(request: Unsent, lane: Call[], scope?: StatementScope, opens?: TxState): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const call: Call = { request, lane, resolve, reject, detach: () => {}, opens };
      if (scope) this.#watch(call, scope);
      lane.push(call);
      this.#pump();
    });
  }

  /** Cancels `call` when its scope's signal aborts or its deadline passes. */
  #watch(call: Call, scope: StatementScope) {
    const { signal, deadline } = scope;
    const onAbort = () => this.#cancel(call, new StatementCancelledError('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer =
      deadline === undefined
        ? undefined
        : setTimeout(
            () => this.#cancel(call, new StatementCancelledError('timeout', scope.timeoutMs)),
            Math.min(Math.max(0, deadline - Date.now()), 2_147_483_647),
          );
    timer?.unref();
    call.detach = () => {
      signal?.removeEventListener('abort', onAbort);
      if (timer) clearTimeout(timer);
    };
  }

  #cancel(call: Call, error: StatementCancelledError) {
    const waiting = call.lane.indexOf(call);
    if (waiting >= 0) {
      call.lane.splice(waiting, 1);
      call.detach();
      call.reject(error);
      return;
    }
    const running = this.#running;
    if (running?.call !== call || running.abandoned) return;
    if (this.#options.dir) {
      this.#restart(error);
      return;
    }
    // In memory there is nothing to reopen: the caller is answered now and the statement's result,
    // when it comes, is dropped. (Only tests use an in-memory database; the server has a directory.)
    running.abandoned = true;
    call.detach();
    call.reject(error);
  }

  /** Stops the running statement by ending its thread; what waits runs on the next one. */
  #restart(error: StatementCancelledError) {
    const running = this.#running;
    this.#running = undefined;
    if (running) {
      running.call.detach();
      running.call.reject(error);
    }
    this.#failTransaction(error);
    const old = this.#thread;
    this.#thread = undefined;
    this.#ready = false;
    if (old) old.stopping = true;
    // Never two threads on one directory: the new one opens it once the old one has stopped.
    this.#start(undefined, old?.worker.terminate()).catch(() => {});
  }

  /** The held transaction can no longer commit: its waiting statements fail with `error`. */
  #failTransaction(error: Error) {
    const tx = this.#tx;
    if (!tx) return;
    this.#tx = undefined;
    tx.dead = error;
    for (const call of tx.lane.splice(0)) {
      call.detach();
      call.reject(error);
    }
  }

  /** Starts a thread (after `previous` has stopped); calls waiting fail if it cannot open. */
  #start(dump?: ArrayBuffer, previous?: Promise<unknown>): Promise<void> {
    const starting = this.#startAfter(dump, previous);
    this.#starting = starting;
    return starting.finally(() => {
      if (this.#starting === starting) this.#starting = undefined;
      this.#pump();
    });
  }

  async #startAfter(dump?: ArrayBuffer, previous?: Promise<unknown>): Promise<void> {
    await previous;
    const start = { ...(this.#options.dir ? { dir: this.#options.dir } : {}), ...(dump ? { dump } : {}) };
    const thread = startThread(start, {
      message: (reply) => this.#answer(thread, reply),
      died: (error) => this.#died(thread, error),
    });
    this.#thread = thread;
    try {
      await thread.ready;
    } catch (error) {
      if (this.#thread === thread) this.#thread = undefined;
      for (const call of this.#lane.splice(0)) {
        call.detach();
        call.reject(error as Error);
      }
      throw error;
    }
    if (this.#thread === thread) this.#ready = true;
  }

  /** Sends the next call when the thread is free: the held transaction's, else the next in line. */
  #pump() {
    if (this.#running || this.#starting) return;
    if (!this.#thread) {
      if (this.#lane.length > 0 && !this.#closed) this.#start().catch(() => {});
      return;
    }
    if (!this.#ready) return;
    const worker = this.#thread.worker;
    const call = (this.#tx ? this.#tx.lane : this.#lane).shift();
    if (!call) {
      // Idle, the thread does not keep the process alive (PGlite in-thread did not either).
      worker.unref();
      return;
    }
    worker.ref();
    const id = this.#nextId++;
    this.#running = { id, call, abandoned: false };
    if (call.opens) this.#tx = call.opens;
    try {
      worker.postMessage({ ...call.request, id });
    } catch (error) {
      // A parameter that cannot be cloned (a function, …): this call fails, the next one goes.
      this.#running = undefined;
      if (call.opens) this.#tx = undefined;
      call.detach();
      call.reject(error as Error);
      this.#pump();
    }
  }

  #answer(thread: Thread, reply: Reply) {
    const running = this.#running;
    if (thread !== this.#thread || !running || !('id' in reply) || reply.id !== running.id) return;
    this.#running = undefined;
    const { call } = running;
    if (call.request.type === 'end' || (call.request.type === 'begin' && reply.type === 'error')) {
      this.#tx = undefined;
    }
    call.detach();
    if (running.abandoned && call.opens && reply.type === 'result') {
      // A transaction whose caller was answered already: nobody will end it, so it is rolled back.
      call.opens.id = reply.result as number;
      this.#push({ type: 'end', tx: call.opens.id, commit: false }, call.opens.lane).catch(() => {});
    } else if (!running.abandoned) {
      if (reply.type === 'error') call.reject(fromWireError(reply.error));
      else call.resolve(reply.type === 'dumped' ? reply.tar : reply.result);
    }
    this.#pump();
  }

  /** The thread ended on its own: what was running or waiting fails; the next call starts another. */
  #died(thread: Thread, cause: Error) {
    if (thread !== this.#thread) return;
    const error = new PgliteThreadDiedError(
      this.#options.dir
        ? `${cause.message}; the statements waiting on it failed, the next one opens the database again`
        : `${cause.message}; the in-memory database is lost`,
      { cause },
    );
    this.#thread = undefined;
    this.#ready = false;
    if (!this.#options.dir) this.#lost = error;
    const running = this.#running;
    this.#running = undefined;
    if (running && !running.abandoned) {
      running.call.detach();
      running.call.reject(error);
    }
    this.#failTransaction(error);
    for (const call of this.#lane.splice(0)) {
      call.detach();
      call.reject(error);
    }
  }
}
