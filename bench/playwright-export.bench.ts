/**
 * Argus's runner against the exported Playwright project (not a test): `npm run bench` runs it after the
 * automation benchmark; alone, `node --import tsx bench/playwright-export.bench.ts`.
 *
 * The same suite (hand-written step-language cases on the to-do fixture app, docs/EXPORT.md) is run on
 * the same machine in the same run, at the same parallelism (2, AUTOMATION_PARALLELISM's default):
 *
 * - by Argus's runner (`runTestCase` over a BrowserPool), with a screenshot after every step as runs
 *   take them, and without;
 * - by `npx playwright test` in a temporary copy of the export (its node_modules linking the repository's
 *   @playwright/test, offline), `--workers=2`, the system Chromium. Its time is the whole command (a
 *   user's wait: the Node process, the config, the browser's launch) and, apart, the run as its JSON
 *   report times it.
 *
 * Each is run BENCH_ROUNDS times (default 3) in turn, and the median is reported as tests per minute.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BrowserPool, findChromium, runTestCase, TargetPolicy } from '@argus/engine';
import { type ExportSuite, exportPlaywright } from '@argus/playwright-export';
import { TestCaseSchema } from '@argus/protocol';
import { serveFixtureApp } from '../fixtures/apps/serve';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PARALLELISM = 2;
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const CASES: ExportSuite['test_cases'] = [
  {
    test_name: 'Adding items shows them and updates the counter',
    steps: [
      'Fill "New todo" with "Buy milk"',
      'Press Enter',
      'Type "Walk the dog"',
      'Press Enter',
      'Verify exactly 2 listitems are visible in "Mark all as complete"',
      'Verify text "2 items left" is visible',
    ],
  },
  {
    test_name: 'Completing an item marks it and filters it out of Active',
    steps: [
      'Fill "New todo" with "Buy milk"',
      'Press Enter in "New todo"',
      'Check the checkbox in "Buy milk"',
      'Verify "Buy milk" is marked "completed"',
      'Click link "Active"',
      'Verify text "Buy milk" is not visible',
    ],
  },
  {
    test_name: 'Editing then deleting an item',
    steps: [
      'Fill "New todo" with "Walk the dog"',
      'Press Enter',
      'Double-click "Walk the dog"',
      'Fill the focused field with "Walk the dog twice"',
      'Press Enter',
      'Click button "Delete" in "Walk the dog twice"',
      'Verify text "Walk the dog twice" is not visible',
    ],
  },
  {
    test_name: 'The page loads cleanly',
    steps: [
      'Verify heading "todos" is visible',
      'Verify page has no console errors',
      'Verify no horizontal overflow',
    ],
  },
];
/** Three copies of each case: 12 tests, enough for the parallel workers to stay busy. */
const SUITE: ExportSuite = {
  name: 'To-do list',
  test_cases: [1, 2, 3].flatMap((n) => CASES.map((c) => ({ ...c, test_name: `${c.test_name} #${n}` }))),
};

const app = await serveFixtureApp('todo');
const baseUrl = `${app.url}/`;
const pool = new BrowserPool({
  policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }),
  maxContexts: PARALLELISM,
});

const exported = exportPlaywright({
  project: 'Fixture to-do',
  environment: { name: 'local', base_url: baseUrl },
  login: { mode: 'none' },
  variables: [],
  suites: [SUITE],
});
const dir = await mkdtemp(join(tmpdir(), 'argus-export-bench-'));

try {
  for (const file of exported.files) {
    await mkdir(dirname(join(dir, file.path)), { recursive: true });
    await writeFile(join(dir, file.path), file.content);
  }
  await mkdir(join(dir, 'node_modules/@playwright'), { recursive: true });
  await mkdir(join(dir, 'node_modules/.bin'), { recursive: true });
  await symlink(join(REPO, 'node_modules/@playwright/test'), join(dir, 'node_modules/@playwright/test'));
  for (const name of ['playwright', 'playwright-core']) {
    if (existsSync(join(REPO, 'node_modules', name)))
      await symlink(join(REPO, 'node_modules', name), join(dir, 'node_modules', name));
  }
  await symlink('../@playwright/test/cli.js', join(dir, 'node_modules/.bin/playwright'));

  /** Argus's runner over the suite, PARALLELISM cases at once; ms and failures. */
  const argus = async (screenshots: boolean) => {
    const cases = SUITE.test_cases.map((c) => TestCaseSchema.parse({ ...c, url: '' }));
    const started = performance.now();
    let next = 0;
    let failed = 0;
    const worker = async () => {
      while (next < cases.length) {
        const outcome = await runTestCase(pool, cases[next++], { baseUrl, screenshots });
        if (outcome.status !== 'passed') failed++;
      }
    };
    await Promise.all(Array.from({ length: PARALLELISM }, worker));
    return { ms: performance.now() - started, failed };
  };

  /** `npx playwright test --workers=2`: the whole command's ms, the report's ms, and failures. */
  const playwright = async () => {
    const started = performance.now();
    const child = spawn(
      'npx',
      ['--no-install', 'playwright', 'test', `--workers=${PARALLELISM}`, '--reporter=json'],
      {
        cwd: dir,
        env: { ...process.env, CHROMIUM_PATH: findChromium() },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    await new Promise((done) => child.on('close', done));
    const wall = performance.now() - started;
    let report: { stats?: { duration?: number; expected?: number; unexpected?: number } };
    try {
      report = JSON.parse(out);
    } catch {
      throw new Error(`npx playwright test wrote no report: ${err}`);
    }
    return { ms: wall, reported: report.stats?.duration ?? wall, failed: report.stats?.unexpected ?? 0 };
  };

  // A warm-up of each, not counted: the first browser launch and module loads.
  await argus(false);
  await playwright();

  const times = { shots: [] as number[], plain: [] as number[], pw: [] as number[], pwRun: [] as number[] };
  let failures = 0;
  const loadBefore = loadavg()[0];
  for (let round = 0; round < ROUNDS; round++) {
    const a = await argus(true);
    const b = await argus(false);
    const c = await playwright();
    times.shots.push(a.ms);
    times.plain.push(b.ms);
    times.pw.push(c.ms);
    times.pwRun.push(c.reported);
    failures += a.failed + b.failed + c.failed;
  }
  const tests = SUITE.test_cases.length;
  const perMinute = (ms: number) => (tests / ms) * 60_000;
  const row = (name: string, ms: number) =>
    `| ${name} | ${(ms / 1000).toFixed(2)} s | ${perMinute(ms).toFixed(1)} |`;
  console.log(
    `\nArgus's runner vs the exported Playwright project: ${tests} tests on the to-do fixture app, parallelism ${PARALLELISM}, median of ${ROUNDS} rounds`,
  );
  console.log(
    `(${cpus().length} CPUs, ${cpus()[0]?.model ?? '?'}; load ${loadBefore.toFixed(2)} → ${loadavg()[0].toFixed(2)}; ${exported.todo} TODO lines; failures: ${failures})\n`,
  );
  console.log('| runner | suite time | tests per minute |');
  console.log('|---|---|---|');
  console.log(row("Argus's runner, a screenshot per step (as runs take them)", median(times.shots)));
  console.log(row("Argus's runner, no screenshots", median(times.plain)));
  console.log(row('`npx playwright test`, whole command', median(times.pw)));
  console.log(row('`npx playwright test`, as its report times the run', median(times.pwRun)));
  console.log(
    `\nRatio (tests per minute, Argus / Playwright): ${(median(times.pw) / median(times.shots)).toFixed(2)}× with screenshots, ${(median(times.pw) / median(times.plain)).toFixed(2)}× without, against the whole command; ` +
      `${(median(times.pwRun) / median(times.plain)).toFixed(2)}× without screenshots against the run as Playwright times it.`,
  );
  if (failures > 0) process.exitCode = 1;
} finally {
  await pool.close();
  await app.close();
  await rm(dir, { recursive: true, force: true });
}
