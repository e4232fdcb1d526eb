import { mkdir, readFile } from 'node:fs/promises';
import { isRunOver } from '@argus/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { type FixtureApp, serveFixtureApp } from '../fixtures/apps/serve';
import { PageOpener, pageToken, registerAccount, signIn } from './support/app';
import { describeViolations, isBlocking, runAxe } from './support/axe';
import { launchBrowser, screenshot } from './support/browser';

/**
 * Test History and Analytics through their screens (docs/HISTORY.md), on history recorded through
 * the real API the way a pipeline records it (POST then PUT /api/automation/test-runs, no browser
 * run): two runs of one suite, one case passing then failing. The list shows both and filters by
 * status in the address; the newer run's page shows that case as a new failure against the run
 * before, with its results strip; Analytics lists it as flaky, with its table and CSV. Axe-clean at
 * 1440 and 390 px.
 */

const SUITE = 'History e2e, checkout';
const URL_UNDER_TEST = 'https://shop.example.com/';
const FLIPPING = 'Adding an item shows it in the cart';
const STEADY = 'Search finds a product';
const SHOTS = '/tmp/shots';

let server: RunningServer;
let todo: FixtureApp;
let browser: Browser;
const pages = new PageOpener(() => browser);
let username = '';

beforeAll(async () => {
  [server, todo, browser] = await Promise.all([
    spawnServer({ ALLOWED_TARGETS: '127.0.0.1', STEP_TIMEOUT_MS: '2000' }),
    serveFixtureApp('todo'),
    launchBrowser(),
  ]);
  await mkdir(SHOTS, { recursive: true });
});

afterAll(async () => {
  await pages.closeAll();
  await browser?.close();
  await server?.stop();
  await todo?.close();
});

async function axeFailures(page: Page, state: string): Promise<string[]> {
  const violations = await runAxe(page);
  return describeViolations(violations.filter(isBlocking)).map((line) => `${state}: ${line}`);
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const d = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement;
    return d.scrollWidth - d.clientWidth;
  });
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  await screenshot(page, name);
}

/** Records a finished run of the suite through the API, its cases passing or failing as given. */
async function recordRun(token: string, outcomes: Record<string, string | null>): Promise<string> {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const names = Object.keys(outcomes);
  const created = await fetch(`${server.url}/api/automation/test-runs`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      url: URL_UNDER_TEST,
      test_suite_name: SUITE,
      status: 'running',
      test_cases: names.map((name) => ({
        test_name: name,
        steps: [
          `Navigate to ${URL_UNDER_TEST}`,
          'Click "Add to cart"',
          'Verify "#cart-count" contains "1 item"',
        ],
      })),
    }),
  });
  if (created.status !== 201) throw new Error(`POST answered ${created.status}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const updated = await fetch(`${server.url}/api/automation/test-runs/${id}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({
      status: 'completed',
      completed_at: new Date().toISOString(),
      execution_time_seconds: 12.5,
      total_tests: names.length,
      test_results: names.map((name) => ({
        status: outcomes[name] === null ? 'passed' : 'failed',
        test_case: { test_name: name },
        execution_time: 3.2,
        error: outcomes[name],
      })),
    }),
  });
  if (!updated.ok) throw new Error(`PUT answered ${updated.status}: ${await updated.text()}`);
  return id;
}

/** One call to the API as the signed-in user; the answer's JSON. */
async function api(token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Runs a saved suite in the real browser (the run API) and waits for its end; its id. */
async function runSuite(token: string, projectId: string, suiteId: string): Promise<string> {
  const started = (await api(token, 'POST', `/api/projects/${projectId}/suites/${suiteId}/runs`, {})) as {
    test_run_id: string;
  };
  for (let i = 0; i < 240; i += 1) {
    const run = (await api(token, 'GET', `/api/runs/${started.test_run_id}`)) as { status: string };
    if (isRunOver(run.status)) return started.test_run_id;
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error('The suite run did not end');
}

describe('Test History and Analytics', () => {
  it('lists runs, filters them in the address, compares a run with the one before, charts it', async () => {
    username = await registerAccount(server.url, 'hist');
    const page = await pages.open({ acceptDownloads: true });
    await signIn(page, server.url, username);
    const main = page.getByRole('main');
    const a11y: string[] = [];

    // No history yet.
    await page.getByTestId('sidebar').getByRole('link', { name: 'Test History', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/history');
    await main.getByRole('heading', { level: 1, name: 'Test History' }).waitFor();
    await main.getByText('No history yet').waitFor();

    const token = await pageToken(page);
    const before = await recordRun(token, { [FLIPPING]: null, [STEADY]: null });
    const after = await recordRun(token, {
      [FLIPPING]: 'Expected "1 item" in #cart-count, found "0 items"',
      [STEADY]: null,
    });

    // Both runs, newest first, with their counts and status.
    await page.reload();
    const items = page.getByTestId('history-item');
    await items.nth(1).waitFor();
    expect(await items.count()).toBe(2);
    expect(await items.evaluateAll((els) => els.map((el) => el.getAttribute('data-status')))).toEqual([
      'failed',
      'passed',
    ]);
    expect(await items.nth(0).getByTestId('history-item-counts').textContent()).toBe('1 passed · 1 failed');
    a11y.push(...(await axeFailures(page, 'history list')));
    await shoot(page, 'history-list-1440');

    // Filtering by status narrows the list, lives in the address and survives a reload.
    await page.getByTestId('history-filters').getByLabel('Status').selectOption('passed');
    await page.waitForURL((url) => url.searchParams.get('status') === 'passed');
    await page.locator('[data-testid="history-item"][data-status="failed"]').waitFor({ state: 'detached' });
    await items.first().waitFor();
    expect(await items.count()).toBe(1);
    await page.reload();
    await items.first().waitFor();
    expect(await items.count()).toBe(1);
    expect(await page.getByTestId('history-filters').getByLabel('Status').inputValue()).toBe('passed');
    await page
      .getByRole('button', { name: /^Clear filters/ })
      .first()
      .click();
    await page.waitForURL((url) => url.search === '');
    await items.nth(1).waitFor();

    // The newer run: the flipping case is a new failure against the run before.
    await items.first().getByTestId('history-item-link').click();
    await page.waitForURL((url) => url.pathname === `/history/runs/${after}`);
    await main.getByRole('heading', { level: 1, name: SUITE }).waitFor();
    const comparison = page.getByTestId('run-comparison');
    await comparison.getByTestId('count-new_failures').filter({ hasText: '1' }).waitFor();
    expect(await comparison.getByTestId('count-fixed').textContent()).toContain('0');
    const changed = comparison.getByTestId('compared-case');
    expect(await changed.count()).toBe(1);
    expect(await changed.getAttribute('data-change')).toBe('new_failure');
    expect(await changed.textContent()).toContain(FLIPPING);
    expect(await changed.textContent()).toContain('found "0 items"');
    expect(await comparison.getByTestId('previous-run-link').getAttribute('href')).toBe(
      `/history/runs/${before}`,
    );

    // Its strip: the run before passed, this one failed, each square naming its result and linking its run.
    const card = page.locator(`[data-testid="run-case"][data-name="${FLIPPING}"]`);
    const squares = card.getByTestId('case-strip').getByRole('link');
    await squares.nth(1).waitFor();
    expect(await squares.evaluateAll((els) => els.map((el) => el.getAttribute('data-status')))).toEqual([
      'passed',
      'failed',
    ]);
    expect(await squares.nth(1).getAttribute('aria-label')).toMatch(/^Failed on .+ \(this run\)$/);
    expect(await squares.nth(0).getAttribute('href')).toBe(`/history/runs/${before}`);
    await card.getByTestId('case-failures').getByText('found', { exact: false }).first().waitFor();
    // The automation screen's results list shows the run's outcome and error.
    const result = page
      .getByTestId('test-results')
      .locator('[data-testid="test-result"][data-status="failed"]');
    expect(await result.textContent()).toContain(FLIPPING);
    a11y.push(...(await axeFailures(page, 'run page')));
    await shoot(page, 'history-run-1440');

    // Analytics: the flipping case is flaky; the pass rate has its table and CSV.
    await page.getByTestId('sidebar').getByRole('link', { name: 'Analytics', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/analytics');
    await main.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
    const flaky = page.getByTestId('list-flaky');
    await flaky.getByRole('cell', { name: FLIPPING }).waitFor();
    expect(await page.getByTestId('total-runs').textContent()).toBe('2');
    const passRate = page.getByTestId('chart-pass-rate');
    await passRate.getByText('Show the numbers as a table').click();
    const table = passRate.getByRole('table');
    await table.waitFor();
    expect(await table.locator('tbody tr').count()).toBe(1);
    expect(await table.locator('tbody tr td').nth(1).textContent()).toBe('2');
    expect(await table.locator('tbody tr td').nth(4).textContent()).toBe('50');
    a11y.push(...(await axeFailures(page, 'analytics')));
    await shoot(page, 'analytics-1440');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      flaky.getByRole('button', { name: 'Download CSV: Flaky tests' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      /^analytics-flaky-tests-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const csv = await readFile((await download.path()) as string, 'utf8');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('Test,Suite,Version,Runs,Flips,Flip rate (%),Passed on retry,Runs involved');
    // The suite's name holds a comma: quoted.
    expect(lines[1]).toMatch(new RegExp(`^${FLIPPING},"${SUITE}",`));

    // A run's flaky link opens its page.
    await flaky.getByRole('link', { name: 'run 1' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/history/runs/'));
    await page.getByTestId('run-page').waitFor();
    expect(a11y).toEqual([]);
  }, 120_000);

  it('reads on a phone: no sideways scroll, axe clean', async () => {
    const page = await pages.open({ width: 390, height: 844 });
    await signIn(page, server.url, username);
    const a11y: string[] = [];

    await page.goto(`${server.url}/history`);
    await page.getByTestId('history-item').nth(1).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    a11y.push(...(await axeFailures(page, 'history list 390')));
    await shoot(page, 'history-list-390');

    await page.getByTestId('history-item-link').first().click();
    await page.getByTestId('case-strip').first().waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    a11y.push(...(await axeFailures(page, 'run page 390')));
    await shoot(page, 'history-run-390');

    await page.goto(`${server.url}/analytics`);
    await page.getByTestId('list-flaky').getByRole('table').waitFor();
    await page.getByTestId('chart-pass-rate').getByText('Show the numbers as a table').click();
    expect(await horizontalOverflow(page)).toBe(0);
    // The chart fits its card.
    const chartWidth = await page
      .getByTestId('chart-pass-rate')
      .locator('canvas')
      .first()
      .evaluate((el) => (el as unknown as { clientWidth: number }).clientWidth);
    expect(chartWidth).toBeGreaterThan(200);
    expect(chartWidth).toBeLessThan(390);
    a11y.push(...(await axeFailures(page, 'analytics 390')));
    await shoot(page, 'analytics-390');
    expect(a11y).toEqual([]);
  }, 90_000);

  it('shows where a saved suite run now differs from the run before and when the case changed; opens a conversation on its screen', async () => {
    const page = await pages.open();
    await signIn(page, server.url, username);
    const token = await pageToken(page);
    const project = (await api(token, 'POST', '/api/projects', {
      name: 'To-do list',
      kind: 'web',
      environments: [{ name: 'staging', base_url: `${todo.url}/` }],
    })) as { id: string };
    const listed = { test_name: 'The list is shown', steps: ['Verify heading "todos" is visible'] };
    const banner = (step: string) => ({ test_name: 'A banner is shown', steps: [step] });
    const suite = (await api(token, 'POST', `/api/projects/${project.id}/suites`, {
      name: 'Smoke',
      test_cases: [listed, banner('Verify heading "todos" is visible')],
    })) as { id: string };
    const first = await runSuite(token, project.id, suite.id);
    await api(token, 'PUT', `/api/projects/${project.id}/suites/${suite.id}`, {
      name: 'Smoke',
      base_version: 1,
      change_note: 'banner checked',
      test_cases: [listed, banner('Verify text "This text is on no page" is visible')],
    });
    const second = await runSuite(token, project.id, suite.id);

    await page.goto(`${server.url}/history?project=${project.id}`);
    await page.getByTestId('history-item').nth(1).waitFor();
    expect(await page.getByTestId('history-item').count()).toBe(2);
    await page.getByTestId('history-item-link').first().click();
    await page.waitForURL((url) => url.pathname === `/history/runs/${second}`);
    await page.getByRole('main').getByRole('heading', { level: 1, name: 'Smoke (v2) on staging' }).waitFor();
    const changed = page.getByTestId('run-comparison').getByTestId('compared-case');
    await changed.first().waitFor();
    expect(await changed.count()).toBe(1);
    expect(await changed.getAttribute('data-change')).toBe('new_failure');
    const difference = changed.getByTestId('first-difference');
    expect(await difference.textContent()).toMatch(
      /^First difference at step 2NowVerify text "This text is on no page" is visibleerror: .+BeforeVerify heading "todos" is visiblesuccess$/,
    );
    expect(await page.getByTestId('previous-run-link').getAttribute('href')).toBe(`/history/runs/${first}`);
    const card = page.locator('[data-testid="run-case"][data-name="A banner is shown"]');
    await card
      .getByTestId('case-last-changed')
      .filter({ hasText: /^Steps last changed in v2 .*banner checked/ })
      .waitFor();
    // The automation screen's step log shows the run's steps, the failing one with its error.
    await page
      .getByTestId('execution-log')
      .locator('[data-testid="log-entry"][data-status="error"]')
      .first()
      .waitFor();
    // The automation screen's gallery shows the run's stored screenshots.
    const gallery = page.getByTestId('screenshot-gallery');
    await gallery.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => {
      const d = (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document;
      const img = d.querySelector('[data-testid="screenshot-gallery"] img') as {
        naturalWidth: number;
      } | null;
      return img !== null && img.naturalWidth > 0;
    });
    expect(await axeFailures(page, 'saved suite run')).toEqual([]);
    await shoot(page, 'history-run-saved-suite-1440');
    await page.screenshot({ path: `${SHOTS}/history-run-saved-suite-gallery-1440.png` });

    // A conversation in the history opens its transcript on the conversational screen.
    const conversation = (await api(token, 'POST', '/api/conversations', {
      title: 'Find the to-do list',
      url: `${todo.url}/`,
    })) as { id: string };
    await page.goto(`${server.url}/history?kind=conversation`);
    const line = page.locator('[data-testid="history-item"][data-kind="conversation"]');
    await line.waitFor();
    expect(await page.getByTestId('history-item').count()).toBe(1);
    await line.getByRole('link', { name: 'Find the to-do list' }).click();
    await page.waitForURL((url) => url.pathname === '/conversational');
    expect(new URL(page.url()).searchParams.get('conversation')).toBe(conversation.id);
    await page
      .getByTestId('past-conversation')
      .getByRole('heading', { name: 'Find the to-do list' })
      .waitFor();
  }, 120_000);

  it("pages with 'Load more' after the newest 30", async () => {
    const user = await registerAccount(server.url, 'page');
    const page = await pages.open();
    await signIn(page, server.url, user);
    const token = await pageToken(page);
    for (let i = 1; i <= 31; i += 1) {
      await api(token, 'POST', '/api/automation/test-runs', {
        url: URL_UNDER_TEST,
        test_suite_name: `Paged run ${i}`,
        status: 'completed',
      });
    }
    await page.goto(`${server.url}/history`);
    const items = page.getByTestId('history-item');
    await items.nth(29).waitFor();
    expect(await items.count()).toBe(30);
    await page.getByTestId('history-load-more').click();
    await items.nth(30).waitFor();
    // Every run once, none twice across the pages.
    const titles = await page.getByTestId('history-item-link').allTextContents();
    expect(new Set(titles).size).toBe(31);
    await page.getByText('31 shown · that is all').waitFor();
    expect(await page.getByTestId('history-load-more').count()).toBe(0);
  }, 60_000);
});
