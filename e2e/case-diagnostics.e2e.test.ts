import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isRunOver } from '@argus/protocol';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { PageOpener, pageToken, registerAccount, signIn, toast } from './support/app';
import { describeViolations, isBlocking, runAxe } from './support/axe';
import { launchBrowser, screenshot } from './support/browser';

/**
 * Why a case failed, through the screens (issue 38, docs/DIAGNOSTICS.md): a saved suite whose case
 * fails because the app's order request answers 500 runs twice on a stand-in shop. The run page shows
 * the case labelled 'App error' with its evidence, 'Seen in 2 runs' linking the first run, its trace
 * opening Argus's own trace viewer (which lists the case's actions), its download and size; opened,
 * its console and network beside its steps, the 500 first under the failing step, the filters and the
 * HAR. History and Analytics list the open failure group; the project's runs open the failed case;
 * the suite's Traces and Video settings save; the Automation screen says why after a run. Axe-clean,
 * no sideways scrolling at 390 px; screenshots at 1440 and 390 px in /tmp/h3-shots/.
 */

const SHOTS = '/tmp/h3-shots';
const PROJECT = 'Shop';
const SUITE = 'Checkout';
const CASE = 'Placing an order confirms it';
const STEPS = ['Navigate to /', 'Click "Place order"', 'Verify text "Order confirmed" is visible'];

let server: RunningServer;
let shop: { url: string; server: Server };
let browser: Browser;
const pages = new PageOpener(() => browser);

/**
 * The stand-in shop: 'Place order' sends POST /api/orders a moment later (so the request falls in the
 * step that waits for the confirmation), which answers 500; the page logs the failure as an error.
 */
const SHOP_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body><main><h1>Checkout</h1><button id="order" type="button">Place order</button><p id="status"></p></main>
<script>
document.getElementById('order').addEventListener('click', () => {
  setTimeout(async () => {
    const res = await fetch('/api/orders', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"sku":"A1"}' });
    if (!res.ok) { console.error('Order failed: ' + res.status); document.getElementById('status').textContent = 'Order failed'; return; }
    document.getElementById('status').textContent = 'Order confirmed';
  }, 300);
});
</script></body></html>`;

async function serveShop(): Promise<{ url: string; server: Server }> {
  const http = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/api/orders') {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end('{"error":"database unavailable"}');
      return;
    }
    if (req.method === 'GET' && (req.url === '/' || req.url?.startsWith('/?'))) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(SHOP_PAGE);
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('Not found');
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, server: http };
}

beforeAll(async () => {
  [server, shop, browser] = await Promise.all([
    spawnServer({ ALLOWED_TARGETS: '127.0.0.1', STEP_TIMEOUT_MS: '3000' }),
    serveShop(),
    launchBrowser(),
  ]);
  await mkdir(SHOTS, { recursive: true });
});

afterAll(async () => {
  await pages.closeAll();
  await browser?.close();
  await server?.stop();
  await new Promise((done) => shop?.server.close(done));
});

async function api(token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Runs the saved suite in the real browser (the run API) and waits for its end; its id. */
async function runSuite(token: string, projectId: string, suiteId: string): Promise<string> {
  const started = (await api(token, 'POST', `/api/projects/${projectId}/suites/${suiteId}/runs`, {})) as {
    test_run_id: string;
  };
  for (let i = 0; i < 480; i += 1) {
    const run = (await api(token, 'GET', `/api/runs/${started.test_run_id}`)) as { status: string };
    if (isRunOver(run.status)) return started.test_run_id;
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error('The suite run did not end');
}

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

/**
 * A screenshot of one element (the case), the shell's sticky header let go for the moment, so it
 * does not lie over the top of a case taller than the window.
 */
async function shootElement(page: Page, element: Locator, name: string): Promise<void> {
  const style = await page.addStyleTag({ content: 'header.sticky { position: static !important; }' });
  await element.screenshot({ path: `${SHOTS}/${name}.png` });
  await style.evaluate((node) => (node as unknown as { remove: () => void }).remove());
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  await screenshot(page, name);
}

let token = '';
let username = '';
let projectId = '';
let suiteId = '';
let firstRun = '';
let secondRun = '';

describe('why a case failed', () => {
  it('runs a suite whose order request answers 500, twice, on a project of the stand-in shop', async () => {
    username = await registerAccount(server.url, 'diag');
    const page = await pages.open();
    await signIn(page, server.url, username);
    token = await pageToken(page);
    const project = (await api(token, 'POST', '/api/projects', {
      name: PROJECT,
      kind: 'web',
      environments: [{ name: 'staging', base_url: `${shop.url}/` }],
    })) as { id: string };
    projectId = project.id;
    const suite = (await api(token, 'POST', `/api/projects/${projectId}/suites`, {
      name: SUITE,
      test_cases: [{ test_name: CASE, steps: STEPS }],
      recording: { trace: 'on-failure', video: true },
    })) as { id: string };
    suiteId = suite.id;
    firstRun = await runSuite(token, projectId, suiteId);
    secondRun = await runSuite(token, projectId, suiteId);
    const report = (await api(token, 'GET', `/api/runs/${secondRun}`)) as {
      results: { status: string; failure: { kind: string } | null; trace_url: string | null }[];
    };
    expect(report.results).toMatchObject([{ status: 'failed', failure: { kind: 'app_error' } }]);
    expect(report.results[0].trace_url).not.toBeNull();
  }, 240_000);

  it('shows the case’s label, sightings, trace, video, console and network on the run page', async () => {
    expect(secondRun).not.toBe('');
    const page = await pages.open({ acceptDownloads: true });
    await signIn(page, server.url, username);
    const a11y: string[] = [];
    await page.goto(`${server.url}/history/runs/${secondRun}`);
    const card = page.locator('[data-testid="run-case"]').filter({ hasText: CASE });
    const view = card.getByTestId('case-diagnostics');
    await view.waitFor();

    // The label and its evidence; the same failure in both runs, the first a link to its page.
    expect(await view.getByTestId('failure-kind').textContent()).toBe('App error');
    expect(await view.getByTestId('failure-evidence').textContent()).toMatch(/500/);
    const seen = view.getByTestId('case-seen');
    expect(await seen.textContent()).toMatch(/^Seen in 2 runs since \d{4}-\d{2}-\d{2} \(first in run #/);
    expect(await seen.getByRole('link').getAttribute('href')).toBe(`/history/runs/${firstRun}`);

    // Its trace: opened in a new tab, downloadable, its size shown; its video played here.
    const open = view.getByRole('link', { name: /^Open trace/ });
    expect(await open.getAttribute('target')).toBe('_blank');
    expect(await view.getByRole('link', { name: 'Download trace' }).getAttribute('href')).toMatch(
      /trace\.zip/,
    );
    expect(await view.getByTestId('trace-size').textContent()).toMatch(/^Trace \d+(\.\d)? (B|KB|MB)$/);
    await view.getByTestId('case-video').waitFor();

    // Console and network, loaded when opened: the steps beside them, the 500 under its step.
    const diagnosticsAsked = page.waitForRequest((r) => r.url().endsWith('/diagnostics'));
    await view.getByRole('button', { name: /^Console and network/ }).click();
    await diagnosticsAsked;
    const panel = view.getByTestId('case-diagnostics-panel');
    await view.getByTestId('case-steps').waitFor();
    await panel.getByRole('tab', { name: /^Network/ }).click();
    const failing = panel.locator('[data-testid="entry-group"][data-failing="true"]');
    await failing.waitFor();
    const firstEntry = failing.getByTestId('network-entry').first();
    expect(await firstEntry.getAttribute('data-status')).toBe('500');
    expect(await firstEntry.textContent()).toContain('/api/orders');
    await panel.getByLabel('Failed requests only').check();
    const shown = await panel
      .getByTestId('network-entry')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-failed')));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every((flag) => flag === 'true')).toBe(true);
    await panel.getByRole('tab', { name: /^Console/ }).click();
    await panel.getByLabel('Errors only').check();
    await panel.getByTestId('console-entry').filter({ hasText: 'Order failed: 500' }).waitFor();
    const download = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Download HAR' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.har$/);
    await panel.getByRole('tab', { name: /^Network/ }).click();
    await view.scrollIntoViewIfNeeded();
    await shootElement(page, card, 'case-view-1440');
    await shoot(page, 'run-page-1440');
    a11y.push(...(await axeFailures(page, 'case view 1440')));

    // Keyboard: the tabs move with the arrow keys.
    await panel.getByRole('tab', { name: /^Network/ }).focus();
    await page.keyboard.press('ArrowLeft');
    expect(await panel.getByRole('tab', { name: /^Console/ }).getAttribute('aria-selected')).toBe('true');

    // At 390 px: stacked, nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await panel.getByRole('tab', { name: /^Network/ }).click();
    await view.scrollIntoViewIfNeeded();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await shootElement(page, card, 'case-view-390');
    await shoot(page, 'run-page-390');
    a11y.push(...(await axeFailures(page, 'case view 390')));

    // The trace opens in Argus's own viewer, which lists the case's actions.
    const viewer = await page.context().newPage();
    await viewer.goto(new URL((await open.getAttribute('href')) ?? '', server.url).toString());
    await viewer.getByText(/click/i).first().waitFor({ timeout: 30_000 });
    await viewer.setViewportSize({ width: 1440, height: 900 });
    await viewer.screenshot({ path: `${SHOTS}/trace-viewer-1440.png` });
    await viewer.close();
    expect(a11y).toEqual([]);
  }, 180_000);

  it('lists the open failure group in History and Analytics, and the failed case on the project’s runs', async () => {
    expect(secondRun).not.toBe('');
    const page = await pages.open();
    await signIn(page, server.url, username);
    const a11y: string[] = [];

    await page.goto(`${server.url}/history`);
    const group = page.getByTestId('failure-groups').getByTestId('failure-group').first();
    await group.waitFor();
    expect(await group.getByTestId('failure-kind').textContent()).toBe('App error');
    expect(await group.getByTestId('failure-group-facts').textContent()).toMatch(/^2 runs · 1 case · /);
    expect(await group.textContent()).toContain(CASE);
    a11y.push(...(await axeFailures(page, 'history groups')));
    await shoot(page, 'history-failure-groups-1440');

    await page.goto(`${server.url}/analytics`);
    await page.getByTestId('failure-groups').getByTestId('failure-group').first().waitFor();

    // The project's runs: a failed run opens its failed case, trace and all.
    await page.goto(`${server.url}/projects/${projectId}`);
    const run = page.getByTestId('project-run').first();
    await run.getByRole('button', { name: 'Why cases failed' }).click();
    const failed = run.locator('[data-testid="failed-case"]').filter({ hasText: CASE });
    await failed.getByRole('link', { name: /^Open trace/ }).waitFor();
    expect(await failed.getByTestId('failure-kind').textContent()).toBe('App error');

    // The suite's recording: Traces and the video of failed cases, saved beside its retries.
    const suite = page.locator('[data-testid="saved-suite"]').filter({ hasText: SUITE });
    expect(await suite.getByLabel('Traces').inputValue()).toBe('on-failure');
    expect(await suite.getByLabel('Video of failed cases').isChecked()).toBe(true);
    await suite.getByLabel('Traces').selectOption('always');
    await toast(page, `${SUITE}: traces always, video on`).waitFor();
    const saved = (await api(token, 'GET', `/api/projects/${projectId}/suites/${suiteId}`)) as {
      recording: { trace: string; video: boolean };
      version: number;
    };
    expect(saved.recording).toEqual({ trace: 'always', video: true });
    expect(saved.version).toBe(1);
    a11y.push(...(await axeFailures(page, 'project runs')));
    await shoot(page, 'project-run-failed-cases-1440');
    expect(a11y).toEqual([]);
  }, 120_000);

  it('says why after a run on the Automation screen', async () => {
    expect(projectId).not.toBe('');
    const page = await pages.open();
    await signIn(page, server.url, username);
    await page.goto(`${server.url}/automation`);
    await page.locator('[data-testid="automation-connection"][data-status="connected"]').waitFor();
    const config = page.getByTestId('config-panel');
    await config.getByLabel('Project').selectOption({ label: `${PROJECT} (Web)` });
    await page.getByTestId('project-target-note').waitFor();
    await page.getByRole('button', { name: 'Add custom test' }).click();
    const custom = page.getByRole('form', { name: 'Custom test' });
    await custom.getByLabel('Test name').fill(CASE);
    await custom.getByLabel('Steps, one per line').fill(STEPS.join('\n'));
    await custom.getByRole('button', { name: 'Add test' }).click();
    await page.getByRole('button', { name: `Run ${CASE}` }).click();
    await page
      .locator('[data-testid="automation-status"][data-state="completed"]')
      .waitFor({ timeout: 120_000 });
    const why = page.getByTestId('why-cases-failed');
    const failed = why.locator('[data-testid="failed-case"]').filter({ hasText: CASE });
    expect(await failed.getByTestId('failure-kind').textContent()).toBe('App error');
    await failed.getByRole('link', { name: /^Open trace/ }).waitFor();
    await why.scrollIntoViewIfNeeded();
    await shoot(page, 'automation-why-1440');
    expect(await axeFailures(page, 'automation why')).toEqual([]);
  }, 180_000);

  it('takes a page-health finding to the request it names in the Network tab', async () => {
    expect(projectId).not.toBe('');
    const page = await pages.open();
    await signIn(page, server.url, username);
    await page.goto(`${server.url}/automation`);
    await page.locator('[data-testid="automation-connection"][data-status="connected"]').waitFor();
    const config = page.getByTestId('config-panel');
    await config.getByLabel('Project').selectOption({ label: `${PROJECT} (Web)` });
    await page.getByTestId('project-target-note').waitFor();
    const name = 'Placing an order makes no failed request';
    await page.getByRole('button', { name: 'Add custom test' }).click();
    const custom = page.getByRole('form', { name: 'Custom test' });
    await custom.getByLabel('Test name').fill(name);
    await custom.getByLabel('Steps, one per line').fill(
      [
        'Navigate to /',
        'Click "Place order"',
        // The shop sends its order a moment after the click: the check looks once it has answered.
        'Verify text "Order failed" is visible',
        'Verify page has no failed requests',
      ].join('\n'),
    );
    await custom.getByRole('button', { name: 'Add test' }).click();
    await page.getByRole('button', { name: `Run ${name}` }).click();
    await page
      .locator('[data-testid="automation-status"][data-state="completed"]')
      .waitFor({ timeout: 120_000 });
    const failed = page
      .getByTestId('why-cases-failed')
      .locator('[data-testid="failed-case"]')
      .filter({ hasText: name });
    await failed.getByTestId('toggle-case-diagnostics').click();
    await failed.getByTestId('show-finding').click();
    const panel = failed.getByTestId('case-diagnostics-panel');
    expect(await panel.getByRole('tab', { name: /Network/ }).getAttribute('aria-selected')).toBe('true');
    expect(await panel.getByLabel('Failed requests only').isChecked()).toBe(true);
    const named = panel.locator('[data-named="true"]');
    await named.first().waitFor();
    expect(await named.first().textContent()).toContain('/api/orders');
    expect(await named.first().evaluate((node) => node === document.activeElement)).toBe(true);
  }, 180_000);
});
