/**
 * The proof of the export: a suite exported for a fixture app, written to a temporary directory and
 * run there with `npx playwright test` (the system Chromium), passes on the clean app and fails on a
 * planted bug, test for test with the same verdicts as Argus's own runner (`runTestCase`) on the same
 * app states.
 *
 *   npx vitest run --project browser packages/playwright-export
 *
 * Offline, `@playwright/test` is not installed into the temporary project: its node_modules links
 * the repository's `@playwright/test`, `playwright` and `playwright-core` (testing/exported-project.ts).
 */
import { rm } from 'node:fs/promises';
import {
  BrowserPool,
  findChromium,
  runTestCase,
  type SessionOpener,
  type StepVariables,
  signIn,
  TargetPolicy,
  withStorageState,
} from '@argus/engine';
import { type TestCase, TestCaseSchema } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESK_ACCOUNTS,
  type DeskFixtureApp,
  type FixtureApp,
  serveFixtureApp,
} from '../../../fixtures/apps/serve';
import { TODO_FIXTURE_SUITE, TODO_STATES } from '../../../fixtures/apps/todo-suite';
import { type ExportSuite, exportPlaywright } from './export';
import { runPlaywright, writeProject } from './testing/exported-project';

/**
 * Both runners give a step 5 s instead of 10 s: a case failing on a planted bug waits out its step's
 * time, and the verdicts do not depend on it (the apps answer in milliseconds).
 */
const STEP_TIMEOUT_MS = 5_000;

/** The to-do app's hand-written suite (fixtures/apps/todo/suite.ts), as the exporter takes it. */
const TODO_SUITE: ExportSuite = TODO_FIXTURE_SUITE;

/**
 * `npm test` runs the to-do suite clean and with one planted bug, and the desk's (behind its login)
 * clean; CI's fixture-bugs project (`npm run test:fixture-bugs`, FIXTURE_BUG_PROOFS=1) runs both with
 * every bug listed below. Each state is a run by Argus and one by `npx playwright test`: the desk's
 * bug was cut from `npm test` for its 12 minutes (docs/TESTING.md).
 */
const EVERY_BUG = process.env.FIXTURE_BUG_PROOFS === '1';
const statesToRun = <T>(states: T[], short = 2): T[] => (EVERY_BUG ? states : states.slice(0, short));

/** Argus's own verdicts on the same cases: test title → passed. */
async function runArgus(
  opener: SessionOpener,
  suite: ExportSuite,
  baseUrl: string,
  variables?: StepVariables,
): Promise<{ verdicts: Map<string, boolean>; errors: string[] }> {
  const verdicts = new Map<string, boolean>();
  const errors: string[] = [];
  const cases: TestCase[] = suite.test_cases.map((c) => TestCaseSchema.parse({ ...c, url: '' }));
  await Promise.all(
    cases.map(async (testCase) => {
      const outcome = await runTestCase(opener, testCase, {
        baseUrl,
        screenshots: false,
        stepTimeoutMs: STEP_TIMEOUT_MS,
        ...(variables ? { variables } : {}),
      });
      verdicts.set(testCase.test_name, outcome.status === 'passed');
      if (outcome.error) errors.push(`${testCase.test_name}: ${outcome.error}`);
    }),
  );
  return { verdicts, errors };
}

/** Runs the suite by both runners on each app state, and checks both against the expected verdicts. */
async function compareOnStates(
  app: FixtureApp,
  suite: ExportSuite,
  dir: string,
  states: { bug: string | null; failing: string[] }[],
  argus: () => Promise<{ verdicts: Map<string, boolean>; errors: string[] }>,
  env: Record<string, string> = {},
  beforeEach: () => void = () => {},
): Promise<void> {
  const titles = suite.test_cases.map((c) => c.test_name);
  for (const state of states) {
    app.setBug(state.bug);
    // One after the other: side by side on two cores, each would time the other's steps.
    beforeEach();
    const ours = await argus();
    beforeEach();
    const playwright = await runPlaywright(dir, {
      CHROMIUM_PATH: findChromium(),
      STEP_TIMEOUT_MS: String(STEP_TIMEOUT_MS),
      ...env,
    });
    const expected = Object.fromEntries(titles.map((t) => [t, !state.failing.includes(t)]));
    const label = `bug ${state.bug ?? 'none'}`;
    expect(Object.fromEntries(ours.verdicts), `Argus on ${label}: ${ours.errors.join('\n')}`).toEqual(
      expected,
    );
    expect(
      Object.fromEntries(playwright.verdicts),
      `npx playwright test on ${label}: ${playwright.errors.join('\n')}`,
    ).toEqual(expected);
  }
  app.setBug(null);
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

  it('passes on the clean to-do app, fails with a planted bug switched on, with the verdicts of Argus’s runner', async () => {
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
    await compareOnStates(app, TODO_SUITE, dir, statesToRun(TODO_STATES), () =>
      runArgus(pool, TODO_SUITE, `${app.url}/`),
    );
  }, 300_000);
});

/** A suite of the desk, behind its sign-in: each Playwright worker signs in first, as Argus's lanes do. */
const DESK_SUITE: ExportSuite = {
  name: 'Desk tickets',
  test_cases: [
    {
      test_name: 'The ticket list counts its open tickets and filters them',
      steps: [
        'Navigate to /tickets',
        'Verify heading "Tickets" is visible',
        'Verify the number in "open tickets" counts the rows showing "Open"',
        'Click button "Open"',
        'Verify button "Open" is marked "pressed"',
        'Verify URL contains "status=open"',
        'Verify text "Printer on the third floor jams" is visible',
        'Verify text "Add Dana to the billing group" is not visible',
      ],
    },
    {
      test_name: 'The status report adds up',
      steps: ['Navigate to /reports', 'Verify the rows "Open" + "Closed" add up to "All tickets"'],
    },
    {
      test_name: 'A new ticket is listed and kept',
      steps: [
        'Navigate to /tickets',
        'Click button "New ticket"',
        'Fill "Subject" with "Printer jam {{RUN_ID}}"',
        'Select "High" from "Priority"',
        'Click button "Create"',
        'Verify text "Created ticket" is visible',
        'Reload the page',
        'Verify text "Printer jam {{RUN_ID}}" is visible',
      ],
    },
  ],
};

const DESK_STATES: { bug: string | null; failing: string[] }[] = [
  { bug: null, failing: [] },
  { bug: 'open-count-off-by-one', failing: ['The ticket list counts its open tickets and filters them'] },
  { bug: 'create-not-saved', failing: ['A new ticket is listed and kept'] },
];

describe('an exported suite behind a login', () => {
  let app: DeskFixtureApp;
  beforeAll(async () => {
    app = (await serveFixtureApp('desk')) as DeskFixtureApp;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('signs in once per worker and gives the verdicts of Argus’s runner: clean in npm test, each planted bug switched on in CI', async () => {
    // The two-factor account: the sign-in types a TOTP code too (otpauth in the exported package.json).
    const account = DESK_ACCOUNTS.twoFactor;
    const exported = exportPlaywright({
      project: 'Fixture desk',
      environment: { name: 'local', base_url: `${app.url}/` },
      login: {
        mode: 'credentials',
        login_url: '/login',
        username_variable: 'EMAIL',
        password_secret: 'PASSWORD',
        totp_secret: 'TOTP',
      },
      variables: [
        { name: 'EMAIL', secret: false, value: account.email },
        { name: 'PASSWORD', secret: true },
        { name: 'TOTP', secret: true },
      ],
      suites: [DESK_SUITE],
    });
    expect(exported.files.map((f) => f.path)).toContain('tests/support/login.ts');
    for (const file of exported.files) {
      expect(file.content).not.toContain(account.password);
      expect(file.content).not.toContain(account.totpSecret);
    }
    expect(exported.files.find((f) => f.path === 'package.json')?.content).toContain('"otpauth"');
    const dir = await writeProject(exported.files);
    dirs.push(dir);
    const baseUrl = `${app.url}/`;
    const variables: StepVariables = {
      values: new Map([
        ['EMAIL', { value: account.email, secret: false }],
        ['PASSWORD', { value: account.password, secret: true }],
        ['TOTP', { value: account.totpSecret, secret: true }],
      ]),
      source: 'the desk fixture',
    };
    const argus = async () => {
      // As a run on a project with a login: sign in once, every case starts from that state.
      const { state } = await signIn(
        pool,
        { mode: 'credentials', loginUrl: '/login', username: 'EMAIL', password: 'PASSWORD', totp: 'TOTP' },
        { baseUrl, variables },
      );
      return runArgus(
        withStorageState(pool, () => state),
        DESK_SUITE,
        baseUrl,
        variables,
      );
    };
    // The secret reaches the exported project only as an environment variable, as a user would set it.
    await compareOnStates(
      app,
      DESK_SUITE,
      dir,
      statesToRun(DESK_STATES, 1),
      argus,
      { PASSWORD: account.password, TOTP: account.totpSecret },
      () => app.resetData(),
    );
  }, 300_000);
});
