/**
 * The proof of the export: a suite exported for a fixture app, written to a temporary directory and
 * run there with `npx playwright test` (the system Chromium), passes on the clean app and fails on a
 * planted bug, test for test with the same verdicts as Argus's own runner (`runTestCase`) on the same
 * app states.
 *
 *   npx vitest run --project browser packages/playwright-export
 *
 * Offline, `@playwright/test` is not installed into the temporary project: its node_modules links
 * the repository's `@playwright/test`, `playwright` and `playwright-core` (the same version the export's
 * package.json asks for).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BrowserPool, findChromium, runTestCase, TargetPolicy } from '@argus/engine';
import { type ProjectLogin, type TestCase, TestCaseSchema } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_ACCOUNTS, type FixtureApp, serveFixtureApp } from '../../../fixtures/apps/serve';
import { type ExportSuite, exportPlaywright } from './export';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Hand-written cases over the to-do app's common step forms; each bug below is caught by some. */
const TODO_SUITE: ExportSuite = {
  name: 'To-do list',
  test_cases: [
    {
      test_name: 'Adding items shows them and updates the counter',
      steps: [
        'Navigate to /',
        'Fill "New todo" with "Buy milk"',
        'Press Enter',
        'Type "Walk the dog"',
        'Press Enter',
        'Verify exactly 2 listitems are visible in "Mark all as complete"',
        'Verify text "2 items left" is visible',
        'Verify field "New todo" has value ""',
      ],
    },
    {
      test_name: 'Completing an item marks it and filters it out of Active',
      steps: [
        'Fill "New todo" with "Buy milk"',
        'Press Enter in "New todo"',
        'Check the checkbox in "Buy milk"',
        'Verify the checkbox in "Buy milk" is checked',
        'Verify "Buy milk" is marked "completed"',
        'Verify text "0 items left" is visible',
        'Click link "Active"',
        'Verify link "Active" is marked "selected"',
        'Verify URL contains "#/active"',
        'Verify text "Buy milk" is not visible',
      ],
    },
    {
      test_name: 'Editing then deleting an item',
      steps: [
        'Fill "New todo" with "Walk the dog {{RUN_ID}}"',
        'Press Enter',
        'Double-click "Walk the dog {{RUN_ID}}"',
        'Fill the focused field with "Walk the dog twice"',
        'Press Enter',
        'Verify text "Walk the dog twice" is visible',
        'Click button "Delete" in "Walk the dog twice"',
        'Verify text "Walk the dog twice" is not visible',
        'Verify exactly 0 listitems are visible',
      ],
    },
    {
      test_name: 'The page loads cleanly',
      steps: [
        'Verify title contains "Todos"',
        'Verify heading "todos" is visible',
        'Verify page has no console errors',
        'Verify page has no failed requests',
        'Set viewport to 390x844',
        'Verify no horizontal overflow',
        'Take screenshot',
        'Wait 100 ms',
      ],
    },
  ],
};

/** Each state the suite runs on, and the tests that must fail there (empty: every test passes). */
const TODO_STATES: { bug: string | null; failing: string[] }[] = [
  { bug: null, failing: [] },
  { bug: 'toggle-does-not-complete', failing: ['Completing an item marks it and filters it out of Active'] },
  { bug: 'delete-does-nothing', failing: ['Editing then deleting an item'] },
];

interface PlaywrightVerdicts {
  /** Test title → passed. */
  verdicts: Map<string, boolean>;
  errors: string[];
  ms: number;
}

/** Runs `npx playwright test --reporter=json` in the project directory. */
async function runPlaywright(dir: string, env: Record<string, string> = {}): Promise<PlaywrightVerdicts> {
  const started = Date.now();
  const child = spawn('npx', ['--no-install', 'playwright', 'test', '--reporter=json'], {
    cwd: dir,
    env: { ...process.env, CHROMIUM_PATH: findChromium(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`npx playwright test took over 120 s: ${err}`));
    }, 120_000);
    child.on('close', () => {
      clearTimeout(timer);
      done();
    });
  });
  let report: JsonReport;
  try {
    report = JSON.parse(out);
  } catch {
    throw new Error(
      `npx playwright test wrote no JSON report. stderr: ${err}\nstdout: ${out.slice(0, 2000)}`,
    );
  }
  const verdicts = new Map<string, boolean>();
  const errors: string[] = (report.errors ?? []).map((e) => e.message ?? '');
  const walk = (suite: JsonSuite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.projectName === 'setup') continue;
        const result = test.results?.at(-1);
        verdicts.set(spec.title, result?.status === 'passed');
        if (result?.status !== 'passed')
          errors.push(`${spec.title}: ${result?.error?.message ?? result?.status}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return { verdicts, errors, ms: Date.now() - started };
}

interface JsonSuite {
  specs?: {
    title: string;
    tests?: {
      projectName?: string;
      results?: { status: string; error?: { message?: string } }[];
    }[];
  }[];
  suites?: JsonSuite[];
}
interface JsonReport {
  suites?: JsonSuite[];
  errors?: { message?: string }[];
}

/** Writes the export into a new temporary directory with @playwright/test linked in. */
async function writeProject(files: { path: string; content: string }[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'argus-export-'));
  for (const file of files) {
    await mkdir(dirname(join(dir, file.path)), { recursive: true });
    await writeFile(join(dir, file.path), file.content);
  }
  const modules = join(dir, 'node_modules');
  await mkdir(join(modules, '@playwright'), { recursive: true });
  await mkdir(join(modules, '.bin'), { recursive: true });
  await symlink(join(REPO, 'node_modules/@playwright/test'), join(modules, '@playwright/test'));
  for (const name of ['playwright', 'playwright-core', 'otpauth']) {
    if (existsSync(join(REPO, 'node_modules', name)))
      await symlink(join(REPO, 'node_modules', name), join(modules, name));
  }
  await symlink('../@playwright/test/cli.js', join(modules, '.bin/playwright'));
  return dir;
}

/** Argus's own verdicts on the same cases: test title → passed. */
async function runArgus(
  pool: BrowserPool,
  suite: ExportSuite,
  baseUrl: string,
  options: { storageState?: Awaited<ReturnType<typeof import('@argus/engine').signIn>> } = {},
): Promise<{ verdicts: Map<string, boolean>; errors: string[] }> {
  const verdicts = new Map<string, boolean>();
  const errors: string[] = [];
  const cases: TestCase[] = suite.test_cases.map((c) => TestCaseSchema.parse({ ...c, url: '' }));
  await Promise.all(
    cases.map(async (testCase) => {
      const outcome = await runTestCase(pool, testCase, {
        baseUrl,
        screenshots: false,
        ...(options.storageState ? { storageState: options.storageState } : {}),
      });
      verdicts.set(testCase.test_name, outcome.status === 'passed');
      if (outcome.error) errors.push(`${testCase.test_name}: ${outcome.error}`);
    }),
  );
  return { verdicts, errors };
}

let pool: BrowserPool;
const dirs: string[] = [];

beforeAll(() => {
  pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
});
afterAll(async () => {
  await pool?.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('an exported suite under npx playwright test', () => {
  let app: FixtureApp;
  beforeAll(async () => {
    app = await serveFixtureApp('todo');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('passes on the clean to-do app, fails on planted bugs, with the verdicts of Argus’s runner', async () => {
    const exported = exportPlaywright({
      project: 'Fixture to-do',
      environment: { name: 'local', base_url: `${app.url}/` },
      login: { mode: 'none' },
      variables: [],
      suites: [TODO_SUITE],
    });
    expect(exported.todo).toBe(0);
    expect(exported.tests).toBe(TODO_SUITE.test_cases.length);
    const dir = await writeProject(exported.files);
    dirs.push(dir);
    const titles = TODO_SUITE.test_cases.map((c) => c.test_name);
    for (const state of TODO_STATES) {
      app.setBug(state.bug);
      // One after the other: side by side on two cores, each would time the other's steps.
      const argus = await runArgus(pool, TODO_SUITE, `${app.url}/`);
      const playwright = await runPlaywright(dir);
      const expected = new Map(titles.map((t) => [t, !state.failing.includes(t)]));
      const label = `bug ${state.bug ?? 'none'}`;
      expect(Object.fromEntries(argus.verdicts), `Argus on ${label}: ${argus.errors.join('\n')}`).toEqual(
        Object.fromEntries(expected),
      );
      expect(
        Object.fromEntries(playwright.verdicts),
        `Playwright on ${label}: ${playwright.errors.join('\n')}`,
      ).toEqual(Object.fromEntries(expected));
    }
    app.setBug(null);
  }, 300_000);
});

void ({} as ProjectLogin);
void DESK_ACCOUNTS;
