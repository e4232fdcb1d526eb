import { Worker } from 'node:worker_threads';

/**
 * The shutdown deadline, kept by a worker thread so that nothing the main thread does can stop it:
 * a timer on the main thread needs its event loop, and a main thread blocked in a synchronous call
 * (a log flush retrying EAGAIN, a native wait) never returns to it. Past the deadline the worker
 * writes what the shutdown was doing and what was still open to standard error, then sends SIGKILL
 * to its own process. Plain JavaScript evaluated in the worker: no file to find, no transpiler.
 */
const WATCHDOG_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const { write } = require('node:fs');
const started = Date.now();
let last = { stage: 'starting', resources: [], since: started };
parentPort.on('message', (message) => { last = message; });
setTimeout(() => {
  const counts = new Map();
  for (const name of last.resources) counts.set(name, (counts.get(name) || 0) + 1);
  const open = [...counts].map(([name, n]) => (n > 1 ? name + ' x' + n : name)).join(', ') || 'nothing';
  const text = 'Argus: shutdown did not finish within ' + workerData.deadlineMs + ' ms; it was ' + last.stage +
    ' (for ' + ((Date.now() - last.since) / 1000).toFixed(1) + ' s); still open: ' + open +
    '; killing the process (SIGKILL)\\n';
  let killed = false;
  const kill = () => {
    if (killed) return;
    killed = true;
    process.kill(workerData.pid, 'SIGKILL');
  };
  // Asynchronous, so a standard error nobody reads cannot hold the kill back.
  try { write(2, text, kill); } catch { kill(); }
  setTimeout(kill, 250);
}, workerData.deadlineMs);
`;

export interface ShutdownWatchdog {
  /** Tells the watchdog what the shutdown is doing now, with the resources still open. */
  stage(what: string): void;
}

/** Arms the watchdog: unless the process has exited by then, it is killed `deadlineMs` from now. */
export function startShutdownWatchdog(deadlineMs: number): ShutdownWatchdog {
  const worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { deadlineMs, pid: process.pid } });
  // It must not keep a process that finished its shutdown alive; process.exit() ends it.
  worker.unref();
  let current = 'starting';
  let since = Date.now();
  const post = () => {
    try {
      worker.postMessage({ stage: current, resources: process.getActiveResourcesInfo(), since });
    } catch {
      // The worker is gone only when the process is exiting.
    }
  };
  // While the main thread still runs its loop, keep the picture of what is open fresh.
  const refresh = setInterval(post, 500);
  refresh.unref();
  return {
    stage(what: string) {
      current = what;
      since = Date.now();
      post();
    },
  };
}
