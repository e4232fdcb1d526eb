/**
 * The contract every registered planner passes, against the Acme Outfitters fixture site in real
 * Chromium: it reads what the engine explored, writes only the step language, raises no false alarm
 * (a generated case fails only on one of the site's planted defects), and stops when told to.
 */
import {
  AbortedError,
  type Behaviour,
  BrowserPool,
  explore,
  exploreBehaviours,
  type PageObservation,
  parseStep,
  runTestCase,
  TargetPolicy,
} from '@argus/engine';
import { MODEL_PROVIDERS, type TestCase } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantedDefectIn } from '../../../fixtures/site/defects';
import { type FixtureSite, serveFixtureSite } from '../../../fixtures/site/serve';
import { interactivePages } from './generate-suite';
import { createPlanner, PLANNER_PROVIDERS } from './registry';

/** Full mode, and commands that touch every kind of rule (forms, search, content, layout). */
const MODES: { mode: string; command?: string }[] = [
  { mode: 'full mode' },
  { mode: 'command mode (forms)', command: 'Test the login and the contact form, and search for "shoes"' },
  {
    mode: 'command mode (content, layout)',
    command: 'Check that "Featured products" shows, and the mobile layout of the team page',
  },
];

let site: FixtureSite;
let pool: BrowserPool;
let pages: PageObservation[];
/** What the site did when acted on (its search and contact forms). */
let behaviours: Behaviour[];
/** Every request the fixture site has been asked for, in order. */
const requests: string[] = [];

beforeAll(async () => {
  site = await serveFixtureSite({ onRequest: ({ method, url }) => requests.push(`${method} ${url}`) });
  pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
  pages = await explore(pool, `${site.url}/`, { maxPages: 10 });
  behaviours = await exploreBehaviours(pool, `${site.url}/`, { pages: interactivePages(pages) });
}, 120_000);

afterAll(async () => {
  await pool?.close();
  await site?.close();
});

/**
 * The planners that run without a model. A model's planner (openai, anthropic, openai-compatible) is
 * checked through the whole loop with a scripted model in llm/llm-engine.browser.test.ts, and against a
 * real one, when a key is set, in llm/real-model.browser.test.ts.
 */
const RULE_PLANNERS = PLANNER_PROVIDERS.filter((p) => !(MODEL_PROVIDERS as readonly string[]).includes(p));

describe.each(RULE_PLANNERS)('planner %s against the fixture site', (provider) => {
  const planner = createPlanner({ provider });
  /** What each mode generated, for the run below. */
  const generated: TestCase[][] = [];

  it.each(MODES)('generates in $mode: named cases whose every step parses', async ({ command }) => {
    expect(pages.length).toBeGreaterThan(1);
    const messages: string[] = [];
    const cases = await planner.generate(
      { url: `${site.url}/`, command, pages, behaviours },
      { signal: new AbortController().signal, onProgress: (m) => messages.push(m) },
    );
    expect(messages.length, 'progress reported').toBeGreaterThan(0);
    expect(cases.length).toBeGreaterThan(0);
    expect(new Set(cases.map((c) => c.test_name)).size, 'distinct names').toBe(cases.length);
    for (const c of cases) {
      expect(c.test_name).not.toBe('');
      expect(c.steps.length, c.test_name).toBeGreaterThan(0);
      for (const line of c.steps) expect(() => parseStep(line), `${c.test_name}: ${line}`).not.toThrow();
      if (command) expect(c.command).toBe(command);
    }
    generated.push(cases);
  });

  it('every generated case passes on the untouched site, except where it finds a planted defect', async () => {
    expect(generated).toHaveLength(MODES.length);
    // The same steps from the same start give the same outcome: each distinct case runs once.
    const distinct = new Map<string, TestCase>();
    for (const c of generated.flat()) distinct.set(JSON.stringify([c.url, c.steps]), c);
    const cases = [...distinct.values()];
    const failures: string[] = [];
    let passed = 0;
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const testCase = cases[next++];
        const outcome = await runTestCase(pool, testCase, { baseUrl: `${site.url}/` });
        if (outcome.status === 'passed') passed++;
        else if (!plantedDefectIn(outcome.error)) failures.push(`${testCase.test_name}: ${outcome.error}`);
      }
    };
    await Promise.all([worker(), worker()]);
    // Which planted defects a planner finds is its own business; what it reports must be real.
    expect(failures, 'false alarms').toEqual([]);
    expect(passed).toBeGreaterThan(0);
  }, 600_000);

  it.each(MODES)(
    'stopped mid-way in $mode, rejects promptly and opens no more pages',
    async ({ command }) => {
      const controller = new AbortController();
      let stoppedAt = 0;
      let requestsAtStop = 0;
      const generation = planner.generate(
        { url: `${site.url}/`, command, pages, behaviours },
        {
          signal: controller.signal,
          onProgress: () => {
            if (stoppedAt) return;
            stoppedAt = performance.now();
            requestsAtStop = requests.length;
            controller.abort();
          },
        },
      );
      await expect(generation).rejects.toBeInstanceOf(AbortedError);
      expect(stoppedAt, 'reported progress before finishing').toBeGreaterThan(0);
      expect(performance.now() - stoppedAt, 'ms from Stop to rejection').toBeLessThan(1_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(requests.slice(requestsAtStop), 'requests after Stop').toEqual([]);
      expect(pool.stats().active, 'browser contexts open').toBe(0);
    },
  );

  it('stopped before it starts, rejects at once and reports nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const messages: string[] = [];
    await expect(
      planner.generate(
        { url: `${site.url}/`, pages },
        { signal: controller.signal, onProgress: (m) => messages.push(m) },
      ),
    ).rejects.toBeInstanceOf(AbortedError);
    expect(messages).toEqual([]);
  });
});
