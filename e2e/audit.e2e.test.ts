import { mkdir, readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { PageOpener, pageToken, registerAccount, signIn } from './support/app';
import { describeViolations, isBlocking, runAxe } from './support/axe';
import { launchBrowser, screenshot } from './support/browser';

/**
 * The Audit Log screen (docs/ORGANIZATIONS.md#audit-log) on what the real routes recorded: sign-ins,
 * a project, a secret set by name, a suite saved. The table lists them newest first, filters by action
 * in the address, exports CSV, and reads on a phone with no sideways scroll; axe-clean at 1440 and 390 px.
 */

const SHOTS = '/tmp/shots';
const SECRET_VALUE = 'e2e-secret-value-never-shown';

let server: RunningServer;
let browser: Browser;
const pages = new PageOpener(() => browser);
let username = '';

beforeAll(async () => {
  [server, browser] = await Promise.all([spawnServer(), launchBrowser()]);
  await mkdir(SHOTS, { recursive: true });
  username = await registerAccount(server.url, 'auditor');
});

afterAll(async () => {
  await pages.closeAll();
  await browser?.close();
  await server?.stop();
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

async function api(token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

describe('the Audit Log screen', () => {
  it('lists what was done, filters it, exports it; axe clean at 1440', async () => {
    const page = await pages.open({ acceptDownloads: true });
    await signIn(page, server.url, username);
    const token = await pageToken(page);
    const project = (await api(token, 'POST', '/api/projects', {
      name: 'Shop',
      environments: [{ name: 'staging', base_url: 'https://staging.example.com' }],
    })) as { id: string };
    await api(token, 'PUT', `/api/projects/${project.id}/variables`, {
      name: 'PAYMENT_KEY',
      value: SECRET_VALUE,
      secret: true,
    });
    await api(token, 'POST', `/api/projects/${project.id}/suites`, {
      name: 'Checkout',
      test_cases: [{ test_name: 'Pays', steps: ['Verify heading "Shop" is visible'] }],
    });
    const a11y: string[] = [];

    await page.getByTestId('sidebar').getByRole('link', { name: 'Audit Log', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/audit');
    const main = page.getByRole('main');
    await main.getByRole('heading', { level: 1, name: 'Audit Log' }).waitFor();
    const rows = page.getByTestId('audit-row');
    await rows.nth(3).waitFor();
    expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-action')))).toEqual([
      'suite_saved',
      'secret_set',
      'project_created',
      'sign_in',
    ]);
    expect(await rows.nth(1).textContent()).toContain('Secret set · PAYMENT_KEY');
    expect(await rows.nth(1).textContent()).toContain('Shop');
    expect(await page.getByTestId('audit-list').textContent()).not.toContain(SECRET_VALUE);
    a11y.push(...(await axeFailures(page, 'audit list')));
    await shoot(page, 'audit-1440');

    // Filtering by action narrows the table, lives in the address and survives a reload.
    await page.getByTestId('audit-filters').getByLabel('Action').selectOption('secret_set');
    await page.waitForURL((url) => url.searchParams.get('action') === 'secret_set');
    await page.locator('[data-testid="audit-row"][data-action="sign_in"]').waitFor({ state: 'detached' });
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    await page.reload();
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await page.getByTestId('audit-filters').getByLabel('Action').inputValue()).toBe('secret_set');
    a11y.push(...(await axeFailures(page, 'audit filtered')));

    // The export takes the same filters.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV (filtered)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile((await download.path()) as string, 'utf8')).trimEnd().split('\r\n');
    expect(lines[0]).toBe('created_at,actor,actor_label,action,project_id,target,detail,ip,user_agent,id');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,secret_set,${project.id},PAYMENT_KEY,`);
    expect(lines.join('\n')).not.toContain(SECRET_VALUE);

    await page
      .getByRole('button', { name: /^Clear filters/ })
      .first()
      .click();
    await page.waitForURL((url) => url.search === '');
    // The export itself is now on the list, newest.
    await page.locator('[data-testid="audit-row"][data-action="export_downloaded"]').waitFor();
    expect(a11y).toEqual([]);
  }, 120_000);

  it('reads on a phone: no sideways scroll, axe clean', async () => {
    const page = await pages.open({ width: 390, height: 844 });
    await signIn(page, server.url, username);
    await page.goto(`${server.url}/audit`);
    await page.getByTestId('audit-row').nth(3).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    const a11y = await axeFailures(page, 'audit 390');
    await shoot(page, 'audit-390');
    expect(a11y).toEqual([]);
  }, 90_000);
});
