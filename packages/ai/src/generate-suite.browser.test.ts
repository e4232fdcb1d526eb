/**
 * generateSuite against the fixture apps in real Chromium: full mode writes tests of behaviour first
 * (named from what was done and seen), a command gets the behaviours it names, a command nothing
 * matches gets an honest notice, and every case written passes on the untouched app.
 */
import { BrowserPool, runTestCase, TargetPolicy } from '@argus/engine';
import type { TestCase } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, serveFixtureApp } from '../../../fixtures/apps/serve';
import { generateSuite, poolBrowsers, type SuiteBrowsers } from './generate-suite';
import { createPlanner } from './registry';

let pool: BrowserPool;
let browsers: SuiteBrowsers;
const planner = createPlanner({ provider: 'builtin' });

/**
 * The pool's real explorers, each exploration made once per start URL and kept: the tests of one app
 * differ in what the planner is asked (all, or a command), not in what exploring the unchanged app
 * finds, so the second and third ask the planner about the first's findings instead of exploring
 * the same app again (about 40 s each here). A test run alone explores for itself.
 */
function exploredOnce(real: SuiteBrowsers): SuiteBrowsers {
  const pages = new Map<string, ReturnType<SuiteBrowsers['explore']>>();
  const behaviours = new Map<string, ReturnType<NonNullable<SuiteBrowsers['exploreBehaviours']>>>();
  const explore = real.exploreBehaviours;
  return {
    ...real,
    explore: (url, options) => {
      if (!pages.has(url)) pages.set(url, real.explore(url, options));
      return pages.get(url)!;
    },
    exploreBehaviours: explore
      ? (url, options) => {
          if (!behaviours.has(url)) behaviours.set(url, explore(url, options));
          return behaviours.get(url)!;
        }
      : undefined,
  };
}

beforeAll(() => {
  pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
  browsers = exploredOnce(poolBrowsers(pool));
});
afterAll(async () => {
  await pool?.close();
});

/**
 * Budgets no exploration of these small apps reaches on any machine: what is found is the subject
 * here, not how much fits in the default wall-clock budgets, which a busy machine cuts short.
 */
const UNHURRIED = { timeBudgetMs: 120_000, behaviour: { timeBudgetMs: 150_000 } };

async function failures(app: FixtureApp, cases: TestCase[]): Promise<string[]> {
  const failed: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++];
      const outcome = await runTestCase(pool, c, { baseUrl: `${app.url}/`, screenshots: false });
      if (outcome.status !== 'passed') failed.push(`${c.test_name}: ${outcome.error}`);
    }
  };
  await Promise.all([worker(), worker()]);
  return failed;
}

describe('generateSuite on the to-do app', () => {
  let app: FixtureApp;
  beforeAll(async () => {
    app = await serveFixtureApp('todo');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('full mode: behaviour tests first, each named for what it checks, all passing on the clean app', async () => {
    const progress: string[] = [];
    const suite = await generateSuite(browsers, `${app.url}/`, {
      ...UNHURRIED,
      planner,
      onProgress: (m) => progress.push(m),
    });
    const names = suite.cases.map((c) => c.test_name);
    expect(suite.behaviours).toBeGreaterThanOrEqual(8);
    for (const wanted of [
      /^Adding an item shows it in the list and updates the counter$/,
      /^Completing an item marks it completed/,
      /^Deleting an item removes it from the list/,
      /^Editing an item by double-click saves the new title$/,
      /^The Active filter hides completed items$/,
      /^The Completed filter hides active items$/,
      /^Clear completed removes only completed items$/,
    ])
      expect(
        names.some((n) => wanted.test(n)),
        String(wanted),
      ).toBe(true);
    expect(suite.cases[0].category).toBe('Functional');
    expect(names).toContain('Page loads cleanly: todos');
    expect(progress.some((m) => m.startsWith('Trying: '))).toBe(true);
    expect(await failures(app, suite.cases), 'false alarms').toEqual([]);
  }, 400_000);

  it('command mode: the behaviours the command names, and a notice when nothing matches', async () => {
    const suite = await generateSuite(browsers, `${app.url}/`, {
      ...UNHURRIED,
      planner,
      command: 'verify the Active filter hides completed items',
    });
    expect(suite.cases.map((c) => c.test_name)).toEqual(['The Active filter hides completed items']);
    expect(suite.notice).toBeUndefined();
    const none = await generateSuite(browsers, `${app.url}/`, {
      ...UNHURRIED,
      planner,
      command: 'check the weather forecast',
    });
    expect(none.cases).toEqual([]);
    expect(none.notice).toMatch(/nothing matching "check the weather forecast".*Configure an LLM/);
    expect(none.coverage).toEqual([
      {
        clause: 'check the weather forecast',
        tests: [],
        reason: expect.stringMatching(/^No test covers it: nothing/),
      },
    ]);
  }, 400_000);

  it('command mode: every clause of a many-part command gets a test, and the result says which', async () => {
    const command =
      'Test adding a todo, completing it, editing it, deleting it, the All/Active/Completed filters, ' +
      'the items-left counter and Clear completed';
    const suite = await generateSuite(browsers, `${app.url}/`, { ...UNHURRIED, planner, command });
    const names = new Set(suite.cases.map((c) => c.test_name));
    const coverage = suite.coverage ?? [];
    console.log(
      `command coverage on the to-do app:\n  ${coverage.map((c) => `${c.clause}: ${c.tests.join(' | ') || c.reason}`).join('\n  ')}`,
    );
    expect(coverage.map((c) => c.clause)).toEqual([
      'Test adding a todo',
      'completing it',
      'editing it',
      'deleting it',
      'the All/Active/Completed filters',
      'the items-left counter',
      'Clear completed',
    ]);
    for (const clause of coverage) {
      expect(clause.tests.length, `${clause.clause}: ${clause.reason}`).toBeGreaterThan(0);
      for (const test of clause.tests) expect(names.has(test), test).toBe(true);
    }
    expect(coverage.find((c) => c.clause === 'Clear completed')?.tests).toContain(
      'Clear completed removes only completed items',
    );
    expect(await failures(app, suite.cases), 'false alarms').toEqual([]);
  }, 400_000);
});

describe('generateSuite on the cart', () => {
  it('a command about quantities and totals gets the quantity behaviours, passing on the clean app', async () => {
    const app = await serveFixtureApp('cart');
    try {
      const suite = await generateSuite(browsers, `${app.url}/`, {
        ...UNHURRIED,
        planner,
        command: 'check that the cart total updates when I change the quantity',
      });
      const names = suite.cases.map((c) => c.test_name);
      expect(names.length).toBeGreaterThan(0);
      for (const n of names) expect(n).toMatch(/quantity/i);
      expect(await failures(app, suite.cases), 'false alarms').toEqual([]);
    } finally {
      await app.close();
    }
  }, 400_000);
});
