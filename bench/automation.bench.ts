/**
 * Automation benchmarks (not a test): `npm run bench`.
 *
 * 1. Per-step engine overhead: the same steps as step-language lines run by the engine, and written
 *    directly in Playwright, in the same run, against the fixture site. Reported as a ratio.
 * 2. Tests per minute over the generated fixture suite at parallelism 1, 2 and 4.
 * 3. Generation time (exploration + built-in planning) for the fixture site.
 */
import { BuiltinPlanner } from '@argus/ai';
import { BrowserPool, CHROMIUM_ARGS, explore, findChromium, runTestCase, TargetPolicy } from '@argus/engine';
import { type TestCase, TestCaseSchema } from '@argus/protocol';
import { chromium, type Page } from 'playwright-core';
import { serveFixtureSite } from '../fixtures/site/serve';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
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

async function rawPlaywright(page: Page): Promise<void> {
  await page.goto(`${base}/search.html`);
  await page.getByLabel('Search products', { exact: true }).fill('shoes');
  await page.getByLabel('Search products', { exact: true }).press('Enter');
  await page.getByText('Trail Running Shoes').first().waitFor({ state: 'visible' });
  await page.goto(`${base}/login.html`);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByText('Email is required').first().waitFor({ state: 'visible' });
  await page.getByLabel('Email', { exact: true }).fill('demo@acme.test');
  await page.getByLabel('Password', { exact: true }).fill('Password1');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/account/);
  await page.getByRole('heading', { name: 'Welcome back, Demo' }).waitFor({ state: 'visible' });
}

const rows: string[][] = [];

// ---- 1. per-step overhead --------------------------------------------------------------------
{
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const pool = new BrowserPool({
    policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }),
    maxContexts: 1,
  });
  const testCase = TestCaseSchema.parse({ test_name: 'bench', steps: lines });
  const raw: number[] = [];
  const engineNoShots: number[] = [];
  const engineShots: number[] = [];
  // Warm both paths once, then alternate so drift hits both alike.
  for (let round = -1; round < ROUNDS; round++) {
    // Both sides pay for a fresh isolated context per test, as a test runner must.
    let t = performance.now();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await rawPlaywright(await context.newPage());
    await context.close();
    const rawMs = performance.now() - t;

    t = performance.now();
    const a = await runTestCase(pool, testCase, { baseUrl: base, screenshots: false });
    const noShots = performance.now() - t;
    t = performance.now();
    const b = await runTestCase(pool, testCase, { baseUrl: base, screenshots: true });
    const shots = performance.now() - t;
    if (a.status !== 'passed' || b.status !== 'passed')
      throw new Error(`scenario failed: ${a.error ?? b.error}`);
    if (round >= 0) {
      raw.push(rawMs);
      engineNoShots.push(noShots);
      engineShots.push(shots);
    }
  }
  await browser.close();
  await pool.close();
  const r = median(raw);
  const e = median(engineNoShots);
  const s = median(engineShots);
  rows.push(['Raw Playwright, the same 12 steps in a fresh context', ms(r), '1.00×']);
  rows.push([
    'Engine, same 12 lines, no screenshots (policy proxy, locator search, checks)',
    ms(e),
    `${(e / r).toFixed(2)}×`,
  ]);
  rows.push(['Engine, same 12 lines, JPEG screenshot after every step', ms(s), `${(s / r).toFixed(2)}×`]);
  rows.push(['Per-step engine overhead (no screenshots)', ms((e - r) / lines.length), '']);
  rows.push(['Per-step screenshot cost', ms((s - e) / (lines.length + 0)), '']);
}

// ---- 2 and 3. generation and throughput -----------------------------------------------------
{
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
    `Generation for the fixture site (${pages.length} pages explored, ${cases.length} cases)`,
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

await site.close();
console.log(`\nAutomation benchmark (${ROUNDS} rounds, medians; ${new Date().toISOString()})\n`);
console.log('| measurement | time | ratio / rate |\n|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
