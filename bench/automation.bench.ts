/**
 * Automation benchmarks (not a test): `npm run bench`.
 *
 * 1. Per-step engine overhead: the same steps as step-language lines run by the engine, and written
 *    directly in Playwright, in the same run, against the fixture site; each without screenshots and
 *    with a JPEG after every step. Reported as two ratios: engine / raw without screenshots, and engine
 *    / raw with a screenshot per step.
 * 2. Tests per minute over the generated fixture suite at parallelism 1, 2 and 4.
 * 3. Generation time (exploration + built-in planning) for the fixture site.
 * 4. Generation time for each fixture app (fixtures/apps: a to-do list and a cart), behaviour
 *    exploration included: what a user waits for before the first test.
 * 5. Visual checks (issue 40; bench/visual-checks.ts): a small suite (3 cases of 3–4 steps) on a 1440×900 landing page with a
 *    ticking clock, each case run without and with `Verify the page looks as approved` at its end
 *    (baselines approved first, so the timed checks compare and answer `same`), paired per case and
 *    round, the order rotating; also on the same page without its clock (nothing moves: two captures).
 *    Then `compareWithBaseline` alone at 1440×900 (identical, clock masked, a colour, a 12 px shift, a
 *    removed box) and the PNG decode. BENCH_VISUAL=0 skips it, BENCH_VISUAL=only runs it alone
 *    (BENCH_VISUAL_ROUNDS rounds, default 6; BENCH_DIFF_RUNS, default 30).
 */

import { cpus, loadavg } from 'node:os';
import { BuiltinPlanner, generateSuite } from '@argus/ai';
import { BrowserPool, CHROMIUM_ARGS, explore, findChromium, runTestCase, TargetPolicy } from '@argus/engine';
import { type TestCase, TestCaseSchema } from '@argus/protocol';
import { type CDPSession, chromium, type Page } from 'playwright-core';
import { serveFixtureApp } from '../fixtures/apps/serve';
import { serveFixtureSite } from '../fixtures/site/serve';
import { benchVisualChecks } from './visual-checks';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
/** BENCH_VISUAL=0 skips section 5; BENCH_VISUAL=only runs section 5 alone. */
const VISUAL = process.env.BENCH_VISUAL !== '0';
const ONLY_VISUAL = process.env.BENCH_VISUAL === 'only';
/** BENCH_SUITE=0 measures only the per-step overhead (section 1). */
const SUITE = process.env.BENCH_SUITE !== '0' && !ONLY_VISUAL;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (n: number) => `${n.toFixed(0)} ms`;

const site = await serveFixtureSite();
const base = site.url;

// The scenario: search, login validation, navigation; 12 steps.
const lines = [
  `Navigate to ${base}/search.html`,
  'Fill "Search products" with "shoes"',
  'Press Enter in "Search products"',
  'Verify text "Trail Running Shoes" is visible',
  `Navigate to ${base}/login.html`,
  'Click button "Sign in"',
  'Verify text "Email is required" is visible',
  'Fill "Email" with "demo@acme.test"',
  'Fill "Password" with "Password1"',
  'Click button "Sign in"',
  'Verify URL contains "account"',
  'Verify heading "Welcome back, Demo" is visible',
];

/** The same 12 steps in plain Playwright; `shot` (if any) runs after each, as a test runner's would. */
async function rawPlaywright(page: Page, shot?: () => Promise<unknown>): Promise<void> {
  const step = async (action: () => Promise<unknown>) => {
    await action();
    if (shot) await shot();
  };
  await step(() => page.goto(`${base}/search.html`));
  await step(() => page.getByLabel('Search products', { exact: true }).fill('shoes'));
  await step(() => page.getByLabel('Search products', { exact: true }).press('Enter'));
  await step(() => page.getByText('Trail Running Shoes').first().waitFor({ state: 'visible' }));
  await step(() => page.goto(`${base}/login.html`));
  await step(() => page.getByRole('button', { name: 'Sign in', exact: true }).click());
  await step(() => page.getByText('Email is required').first().waitFor({ state: 'visible' }));
  await step(() => page.getByLabel('Email', { exact: true }).fill('demo@acme.test'));
  await step(() => page.getByLabel('Password', { exact: true }).fill('Password1'));
  await step(() => page.getByRole('button', { name: 'Sign in', exact: true }).click());
  await step(() => page.waitForURL(/account/));
  await step(() => page.getByRole('heading', { name: 'Welcome back, Demo' }).waitFor({ state: 'visible' }));
}

const JPEG = { type: 'jpeg', quality: 60 } as const;

const rows: string[][] = [];
const summary: string[] = [];

// ---- 1. per-step overhead --------------------------------------------------------------------
let chromiumVersion = '';
const loadBefore = loadavg()[0];
if (!ONLY_VISUAL) {
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  chromiumVersion = browser.version();
  const pool = new BrowserPool({
    policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }),
    maxContexts: 1,
  });
  const testCase = TestCaseSchema.parse({ test_name: 'bench', steps: lines });

  // Both sides pay for a fresh isolated context per test, as a test runner must.
  const raw = async (shots: 'none' | 'playwright' | 'cdp') => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    let cdp: CDPSession | undefined;
    if (shots === 'cdp') cdp = await context.newCDPSession(page);
    const taken: Buffer[] = [];
    await rawPlaywright(
      page,
      shots === 'playwright'
        ? async () => taken.push(await page.screenshot(JPEG))
        : cdp
          ? async () => {
              // As the engine does: CDP refuses while a document commits; then Playwright's capture.
              const shot = await cdp
                .send('Page.captureScreenshot', { format: 'jpeg', quality: 60 })
                .then((r) => Buffer.from(r.data, 'base64'))
                .catch(() => page.screenshot(JPEG));
              taken.push(shot);
            }
          : undefined,
    );
    await context.close();
    if (shots !== 'none' && taken.length !== lines.length) throw new Error('raw: a screenshot is missing');
  };
  const engine = async (screenshots: boolean) => {
    const outcome = await runTestCase(pool, testCase, { baseUrl: base, screenshots });
    if (outcome.status !== 'passed') throw new Error(`scenario failed: ${outcome.error}`);
    if (screenshots && outcome.screenshots.length !== lines.length)
      throw new Error('engine: a screenshot is missing');
  };
  const variants = {
    raw: () => raw('none'),
    rawShots: () => raw('playwright'),
    rawCdpShots: () => raw('cdp'),
    engine: () => engine(false),
    engineShots: () => engine(true),
  };
  const names = Object.keys(variants) as (keyof typeof variants)[];
  const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<
    keyof typeof variants,
    number[]
  >;
  // One warm-up round, then every variant once per round, the order rotating so drift hits all alike.
  for (let round = -1; round < ROUNDS; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + Math.max(0, round)) % names.length];
      const t = performance.now();
      await variants[name]();
      if (round >= 0) times[name].push(performance.now() - t);
    }
  }
  await browser.close();
  await pool.close();
  const m = Object.fromEntries(names.map((n) => [n, median(times[n])])) as Record<
    keyof typeof variants,
    number
  >;
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  rows.push(['Raw Playwright, the same 12 steps in a fresh context', ms(m.raw), '1.00×']);
  rows.push([
    'Engine, same 12 lines, no screenshots (policy proxy, locator search, checks)',
    ms(m.engine),
    `${ratio(m.engine, m.raw)} raw`,
  ]);
  rows.push([
    'Raw Playwright, 12 steps, `page.screenshot` JPEG q60 after every step',
    ms(m.rawShots),
    '1.00×',
  ]);
  rows.push([
    'Engine, same 12 lines, JPEG q60 screenshot after every step',
    ms(m.engineShots),
    `${ratio(m.engineShots, m.rawShots)} raw with screenshots`,
  ]);
  rows.push([
    'Raw Playwright, 12 steps, CDP `Page.captureScreenshot` JPEG q60 after every step (awaited)',
    ms(m.rawCdpShots),
    `engine ${ratio(m.engineShots, m.rawCdpShots)} of it`,
  ]);
  rows.push(['Per-step engine overhead (no screenshots)', ms((m.engine - m.raw) / lines.length), '']);
  rows.push([
    'Per-step screenshot cost: raw `page.screenshot` / raw CDP / engine',
    `${ms((m.rawShots - m.raw) / lines.length)} / ${ms((m.rawCdpShots - m.raw) / lines.length)} / ${ms((m.engineShots - m.engine) / lines.length)}`,
    '',
  ]);
  summary.push(
    `engine / raw, no screenshots: ${ratio(m.engine, m.raw)}`,
    `engine / raw, a screenshot per step: ${ratio(m.engineShots, m.rawShots)}`,
  );
}

// ---- 2 and 3. generation and throughput -----------------------------------------------------
if (SUITE) {
  const pool = new BrowserPool({
    policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }),
    maxContexts: 4,
  });
  let t = performance.now();
  const pages = await explore(pool, `${base}/`, { maxPages: 10, timeBudgetMs: 20_000 });
  const cases: TestCase[] = (await new BuiltinPlanner().generate({ url: `${base}/`, pages })).map((c) =>
    TestCaseSchema.parse(c),
  );
  rows.push([
    `Page exploration and planning for the fixture site, no behaviour exploration (${pages.length} pages, ${cases.length} cases)`,
    ms(performance.now() - t),
    '',
  ]);

  for (const parallelism of [1, 2, 4]) {
    t = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: parallelism }, async () => {
        while (next < cases.length) await runTestCase(pool, cases[next++], { baseUrl: `${base}/` });
      }),
    );
    const seconds = (performance.now() - t) / 1000;
    rows.push([
      `Generated suite at parallelism ${parallelism} (${cases.length} tests, screenshots on)`,
      `${seconds.toFixed(1)} s`,
      `${((cases.length / seconds) * 60).toFixed(0)} tests/min`,
    ]);
  }
  await pool.close();
}

// ---- 4. generation for the fixture apps ------------------------------------------------------
if (SUITE) {
  const pool = new BrowserPool({
    policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }),
    maxContexts: 2,
  });
  for (const app of ['todo', 'cart'] as const) {
    const served = await serveFixtureApp(app);
    const times: number[] = [];
    let last: Awaited<ReturnType<typeof generateSuite>> | undefined;
    for (let round = 0; round < 3; round++) {
      const t = performance.now();
      last = await generateSuite(pool, `${served.url}/`, { planner: new BuiltinPlanner() });
      times.push(performance.now() - t);
    }
    await served.close();
    rows.push([
      `Generation for the ${app} app (${last?.pages} page(s), ${last?.behaviours} behaviours, ${last?.cases.length} cases; median of 3)`,
      ms(median(times)),
      '',
    ]);
  }
  await pool.close();
}

// ---- 5. visual checks (bench/visual-checks.ts) ------------------------------------------------
const visualRows: string[][] = [];
if (VISUAL) {
  const visual = await benchVisualChecks(chromiumVersion);
  rows.push(...visual.rows);
  summary.push(...visual.summary);
  visualRows.push(...visual.visualRows);
  chromiumVersion = visual.chromiumVersion;
}

await site.close();
const cpu = cpus();
const rounds = ONLY_VISUAL
  ? `visual checks only, ${process.env.BENCH_VISUAL_ROUNDS ?? 6} rounds`
  : `${ROUNDS} rounds`;
console.log(`\nAutomation benchmark (${rounds}, medians; ${new Date().toISOString()})`);
console.log(
  `Machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.versions.node}, ` +
    `Chromium ${chromiumVersion}; 1-min load average ${loadBefore.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end\n`,
);
console.log('| measurement | time | ratio / rate |\n|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
console.log(`\n${summary.join('\n')}`);
if (visualRows.length) {
  console.log('\nVisual check, where its time goes (medians; the port timed from inside the case)\n');
  console.log(
    '| page | added to the case | the check (port) | captures | gaps | page scripts (freeze, focus) | decode + diff + compare | the step around it |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of visualRows) console.log(`| ${row.join(' | ')} |`);
}
