import { type ChildProcess, spawn } from 'node:child_process';
import { type Database, seedHistory } from '@argus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessServer, startInProcess } from './testing/in-process-server';

// Issue 36: nothing one user does stalls another. On PGlite the database works in a thread of its own
// (packages/db/src/pglite-thread/), so while a history is written and a long statement runs, the
// server still answers `/api/health` within 250 ms. Asked over real HTTP by another process, which
// the server's event loop cannot hold back: a probe sent while the loop is blocked waits for it.

/** The bound the issue sets for any answer while another user's work runs. */
const ANSWER_WITHIN_MS = 250;

const STATEMENTS = [
  'SELECT count(*) FROM test_results r CROSS JOIN generate_series(1, 800) g WHERE r.steps IS NOT NULL',
  'SELECT count(*) FROM generate_series(1, 8000000)',
];

/**
 * Asks `url` every 50 ms, each request on its own (one still waiting does not delay the next), and
 * prints each answer's time. Stops when its stdin closes, printing what is still unanswered too.
 */
const PROBE = `
const url = process.argv[1];
const pending = new Set();
const report = (ms) => process.stdout.write(Math.round(ms) + '\\n');
const timer = setInterval(() => {
  const started = performance.now();
  pending.add(started);
  fetch(url).then((res) => res.arrayBuffer()).then(
    () => { pending.delete(started); report(performance.now() - started); },
    () => { pending.delete(started); process.stdout.write('error\\n'); },
  );
}, 50);
process.stdin.on('end', () => {
  clearInterval(timer);
  for (const started of pending) report(performance.now() - started);
  process.exit(0);
});
process.stdin.resume();
`;

interface Probe {
  stop(): Promise<{ answers: number[]; errors: number }>;
}

function startProbe(url: string): Probe {
  const child: ChildProcess = spawn(process.execPath, ['-e', PROBE, url], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async stop() {
      child.stdin?.end();
      await exited;
      const lines = out.split('\n').filter(Boolean);
      return {
        answers: lines.filter((l) => l !== 'error').map(Number),
        errors: lines.filter((l) => l === 'error').length,
      };
    },
  };
}

describe('a server on PGlite with a seeded history, while long statements run', () => {
  let server: InProcessServer;
  let db: Database;

  beforeAll(async () => {
    server = await startInProcess();
    const { app } = server;
    db = app.services.db;
    const register = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { username: 'busy', email: 'busy@example.com', password: 'Busy-password-1' },
    });
    if (register.statusCode !== 201) throw new Error(`register: ${register.statusCode} ${register.body}`);
    const userId = (register.json().user as { id: string }).id;
    // A few thousand runs over a year (18,000 case results with their steps).
    await seedHistory(db, userId, { runs: 3_000, days: 365, comparisons: 20, conversations: 10 });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it(`answers /api/health within ${ANSWER_WITHIN_MS} ms throughout`, async () => {
    const probe = startProbe(`${server.url}/api/health`);
    let result: Awaited<ReturnType<Probe['stop']>>;
    const started = performance.now();
    const lengths: number[] = [];
    try {
      // Seconds of work in the database, however fast the machine: statements of about a second each
      // (a scan of every case result many times over, a count) until 3 s have gone.
      for (let i = 0; performance.now() - started < 3_000; i++) {
        const statement = performance.now();
        await db.exec(STATEMENTS[i % STATEMENTS.length]);
        lengths.push(Math.round(performance.now() - statement));
      }
    } finally {
      result = await probe.stop();
    }
    const busy = Math.round(performance.now() - started);
    const sorted = [...result.answers].sort((a, b) => a - b);
    const worst = sorted[sorted.length - 1];
    console.log(
      `[server-responsive] statements of ${lengths.join(', ')} ms: ${result.answers.length} answers, ` +
        `p50 ${sorted[Math.floor(sorted.length / 2)]} ms, p99 ${sorted[Math.floor(sorted.length * 0.99)]} ms, ` +
        `worst ${worst} ms, ${result.errors} errors`,
    );
    // Each long enough that, run in the server's thread, it would hold an answer past the bound.
    expect(Math.max(...lengths)).toBeGreaterThan(2 * ANSWER_WITHIN_MS);
    // Asked every 50 ms through seconds of work: the probe ran throughout.
    expect(result.answers.length).toBeGreaterThan(busy / 100);
    expect(result.errors).toBe(0);
    expect(worst).toBeLessThan(ANSWER_WITHIN_MS);
  }, 120_000);
});
