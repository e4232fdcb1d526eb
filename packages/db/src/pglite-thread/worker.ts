import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { PrivateNodeFS } from './private-node-fs';
import type { QueryRequest, Reply, Request, WorkerStart } from './protocol';
import { toWireError } from './protocol';

// The thread that owns the embedded database (client.ts starts it): PGlite's WebAssembly PostgreSQL
// runs here, so a long statement blocks this thread and not the server's event loop. It answers the
// requests of protocol.ts one by one, in the order the client sends them; the client decides what
// runs when (queueing, transactions, cancellation).

if (!parentPort) throw new Error('pglite-thread/worker.ts runs as a worker thread (client.ts starts it)');
const port = parentPort;
const start = workerData as WorkerStart;

const send = (reply: Reply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);

async function open(): Promise<PGlite> {
  // A dump seeds only an empty directory: an existing database is never replaced.
  const seed = start.dump && !(start.dir && existsSync(join(start.dir, 'PG_VERSION')));
  return PGlite.create({
    ...(start.dir ? { fs: new PrivateNodeFS(start.dir) } : {}),
    ...(seed && start.dump ? { loadDataDir: new Blob([start.dump]) } : {}),
  });
}

const identity = (value: string) => value;

/** The transactions held open for the main thread, by id, each with the function that ends it. */
const transactions = new Map<
  number,
  { tx: Transaction; end: (commit: boolean) => void; done: Promise<void> }
>();

function begin(pg: PGlite, id: number): Promise<void> {
  return new Promise((begun, failed) => {
    let end: (commit: boolean) => void = () => {};
    const ending = new Promise<boolean>((resolve) => {
      end = resolve;
    });
    const done = pg.transaction(async (tx) => {
      transactions.set(id, { tx, end, done });
      begun();
      if (!(await ending)) await tx.rollback();
    });
    done.catch(failed).finally(() => transactions.delete(id));
  });
}

function target(pg: PGlite, tx: number | undefined): Pick<Transaction, 'query' | 'exec'> {
  if (tx === undefined) return pg;
  const open = transactions.get(tx);
  if (!open) throw new Error(`The transaction ${tx} is no longer open`);
  return open.tx;
}

function query(pg: PGlite, request: QueryRequest) {
  const parsers = Object.fromEntries(request.identityTypes.map((type) => [type, identity]));
  return target(pg, request.tx).query(request.sql, request.params, { rowMode: request.rowMode, parsers });
}

async function answer(pg: PGlite, request: Request): Promise<void> {
  switch (request.type) {
    case 'query':
      return send({ type: 'result', id: request.id, result: await query(pg, request) });
    case 'exec':
      return send({ type: 'result', id: request.id, result: await target(pg, request.tx).exec(request.sql) });
    case 'begin':
      await begin(pg, request.id);
      return send({ type: 'result', id: request.id, result: request.id });
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error(`The transaction ${request.tx} is no longer open`);
      open.end(request.commit);
      await open.done;
      return send({ type: 'result', id: request.id, result: null });
    }
    case 'dump': {
      const tar = await (await pg.dumpDataDir('none')).arrayBuffer();
      return send({ type: 'dumped', id: request.id, tar }, [tar]);
    }
    case 'close':
      await pg.close();
      send({ type: 'result', id: request.id, result: null });
      port.close();
      return;
  }
}

// No top-level await: from source the worker is loaded through tsx's require hook (thread.ts).
open().then(
  (pg) => {
    port.on('message', (request: Request) => {
      answer(pg, request).catch((error: unknown) =>
        send({ type: 'error', id: request.id, error: toWireError(error) }),
      );
    });
    send({ type: 'ready' });
  },
  (error: unknown) => send({ type: 'open-failed', error: toWireError(error) }),
);
