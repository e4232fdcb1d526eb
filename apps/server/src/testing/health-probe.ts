import { Worker } from 'node:worker_threads';

/** What a probe saw: every answer's time, ms, in order, and the requests that failed. */
export interface ProbeResult {
  times: number[];
  worst: number;
  p99: number;
  failures: number;
}

// The probe runs in a thread of its own: in the server's thread its timers would wait out the very
// stall they should measure (a request not yet sent when the embedded database blocks the thread is
// never timed). Each request's time counts from when it was due, so a late answer delays nothing.
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, everyMs, headers } = workerData;
const times = [];
let failures = 0;
let stopped = false;
parentPort.on('message', () => { stopped = true; });
(async () => {
  let due = performance.now();
  while (!stopped) {
    try {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (!res.ok) failures++;
    } catch {
      failures++;
    }
    times.push(performance.now() - due);
    due = Math.max(due + everyMs, performance.now());
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
  }
  parentPort.postMessage({ times, failures });
})();
`;

/**
 * Asks `url` (e.g. the server's /api/health) every `everyMs` from another thread until `stop()`, which
 * resolves with the answers' times: what another user of the server waited meanwhile.
 */
export function startHealthProbe(
  url: string,
  everyMs = 50,
  headers: Record<string, string> = {},
): { stop: () => Promise<ProbeResult> } {
  const worker = new Worker(PROBE, { eval: true, workerData: { url, everyMs, headers } });
  const done = new Promise<ProbeResult>((resolve, reject) => {
    worker.once('message', ({ times, failures }: { times: number[]; failures: number }) => {
      const sorted = [...times].sort((a, b) => a - b);
      resolve({
        times,
        worst: sorted.at(-1) ?? 0,
        p99: sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? 0,
        failures,
      });
      void worker.terminate();
    });
    worker.once('error', reject);
  });
  return {
    stop: () => {
      worker.postMessage('stop');
      return done;
    },
  };
}
