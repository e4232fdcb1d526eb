// The messages between the main thread's client (client.ts) and the worker that owns PGlite
// (worker.ts). Each request carries an id its one reply repeats; a statement of a transaction also
// carries the transaction's id (the id of the `begin` that opened it). Everything here must survive
// the structured clone: no functions, which is why result parsers travel as type ids.

/** What the worker is started with (`workerData`). */
export interface WorkerStart {
  /** The data directory; none for an in-memory database. */
  dir?: string;
  /** A data directory dump (tar) to open when `dir` holds no database yet. */
  dump?: ArrayBuffer;
}

/**
 * A statement. `identityTypes` are the type ids whose text is returned as is: drizzle passes its
 * `parsers` as identity functions (dates, times, intervals stay strings), and functions cannot cross
 * to the worker, so the worker applies the same identity parsers itself.
 */
export interface QueryRequest {
  type: 'query';
  id: number;
  tx?: number;
  sql: string;
  params: unknown[];
  rowMode: 'object' | 'array';
  identityTypes: number[];
}

export interface ExecRequest {
  type: 'exec';
  id: number;
  tx?: number;
  sql: string;
}

/** Opens a PGlite transaction held until its `end`; its id is this request's id. */
export interface BeginRequest {
  type: 'begin';
  id: number;
}

export interface EndRequest {
  type: 'end';
  id: number;
  tx: number;
  commit: boolean;
}

export interface DumpRequest {
  type: 'dump';
  id: number;
}

export interface CloseRequest {
  type: 'close';
  id: number;
}

export type Request = QueryRequest | ExecRequest | BeginRequest | EndRequest | DumpRequest | CloseRequest;

/** An error as far as it can cross: its message and its primitive fields (PostgreSQL's `code`, …). */
export interface WireError {
  name: string;
  message: string;
  stack?: string;
  fields: Record<string, string | number | boolean>;
}

export type Reply =
  | { type: 'ready' }
  | { type: 'open-failed'; error: WireError }
  | { type: 'result'; id: number; result: unknown }
  | { type: 'dumped'; id: number; tar: ArrayBuffer }
  | { type: 'error'; id: number; error: WireError };

/** PGlite's error fields worth keeping (DatabaseError's, plus the statement it failed in). */
export function toWireError(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: WireError['fields'] = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      fields[key] = value;
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

/** The error again on the main thread, with the fields callers read (`code`, `constraint`, …). */
export function fromWireError(wire: WireError): Error {
  const error = new Error(wire.message);
  Object.assign(error, wire.fields);
  Object.defineProperty(error, 'name', { value: wire.name, configurable: true, writable: true });
  if (wire.stack) error.stack = wire.stack;
  return error;
}
