/**
 * A CPU load generator for the loaded-machine mutation row (docs/TESTING.md): one busy thread per
 * core (or `--threads N`), each spinning on arithmetic at normal priority, so the browsers and the
 * server compete for every core as they would on a machine busy with other work.
 *
 *   node --import tsx mutation/cpu-load.ts                 # until SIGINT/SIGTERM
 *   node --import tsx mutation/cpu-load.ts --seconds 60 --threads 2
 *
 * `startCpuLoad()` does the same from a test and returns a stop function.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isMainThread, Worker } from 'node:worker_threads';

const SPIN = `
  let x = 0;
  for (;;) { for (let i = 0; i < 1e7; i++) x = (x * 1103515245 + 12345) % 2147483648; }
`;

/** Starts `threads` busy threads (default: one per core); the returned function stops them all. */
export function startCpuLoad(threads = availableParallelism()): () => Promise<void> {
  const workers = Array.from({ length: Math.max(1, threads) }, () => new Worker(SPIN, { eval: true }));
  for (const w of workers) w.unref();
  return async () => {
    await Promise.all(workers.map((w) => w.terminate()));
  };
}

if (isMainThread && process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const threads = arg('--threads') ?? availableParallelism();
  const seconds = arg('--seconds');
  const stop = startCpuLoad(threads);
  console.log(`[cpu-load] ${threads} busy thread(s)${seconds ? ` for ${seconds} s` : ''}; Ctrl+C stops`);
  const end = () => stop().then(() => process.exit(0));
  process.on('SIGINT', end);
  process.on('SIGTERM', end);
  setInterval(() => {}, 1 << 30);
  if (seconds) setTimeout(end, seconds * 1000);
}
