import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Reply, WorkerStart } from './protocol';
import { fromWireError } from './protocol';

/**
 * Where the worker's module is and how Node runs it. In the server bundle (scripts/build-server.mjs)
 * this module is inlined into `dist/<entry>.js` and the worker is the `dist/pglite-thread/worker.js`
 * entry built beside it. From source (tests, `node --import tsx`) this module is `thread.ts` beside
 * `worker.ts`, which the worker loads through tsx's loader, registered first in the worker itself:
 * Node 20 does not apply an `--import` in a worker's execArgv to the worker's own entry.
 */
function workerEntry(): { script: URL | string; eval: boolean } {
  if (!import.meta.url.endsWith('.ts'))
    return { script: new URL('./pglite-thread/worker.js', import.meta.url), eval: false };
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const worker = fileURLToPath(new URL('./worker.ts', import.meta.url));
  const script = `require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(worker)});`;
  return { script, eval: true };
}

/** One worker thread owning the database, from its start to its end. */
export interface Thread {
  worker: Worker;
  /** Settles when PGlite is open in the worker (rejects when it could not be). */
  ready: Promise<void>;
  /** Ended on purpose (closed or terminated): its exit is not a failure. */
  stopping: boolean;
}

export interface ThreadEvents {
  /** Every reply after `ready`. */
  message(reply: Reply): void;
  /** The worker ended without being asked to, after it was ready. */
  died(error: Error): void;
}

/** Starts a worker on `start` (the dump's bytes are transferred, not copied). */
export function startThread(start: WorkerStart, events: ThreadEvents): Thread {
  const entry = workerEntry();
  const worker = new Worker(entry.script, {
    eval: entry.eval,
    workerData: start,
    transferList: start.dump ? [start.dump] : [],
  });
  let opened = false;
  let gone = false;
  let settle: { resolve(): void; reject(error: Error): void } = { resolve() {}, reject() {} };
  const thread: Thread = {
    worker,
    stopping: false,
    ready: new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    }),
  };
  const end = (error: Error) => {
    if (gone) return;
    gone = true;
    if (!opened) settle.reject(error);
    else if (!thread.stopping) events.died(error);
  };
  worker.on('message', (reply: Reply) => {
    if (reply.type === 'ready') {
      opened = true;
      settle.resolve();
    } else if (reply.type === 'open-failed') {
      thread.stopping = true;
      end(fromWireError(reply.error));
      void worker.terminate();
    } else events.message(reply);
  });
  worker.on('error', (error) =>
    end(new Error(`The embedded database's worker thread failed: ${error.message}`, { cause: error })),
  );
  worker.on('exit', (code) =>
    end(new Error(`The embedded database's worker thread stopped unexpectedly (exit code ${code})`)),
  );
  return thread;
}
