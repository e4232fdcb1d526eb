import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_EXPLORATION } from '../apps/server/src/testing/small-exploration';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { type FixtureSite, serveFixtureSite } from '../fixtures/site/serve';
import { PageOpener } from './support/app';
import { describeViolations, isBlocking, runAxe } from './support/axe';
import { ARTIFACTS_DIR, launchBrowser } from './support/browser';

/**
 * Argus tests other sites' accessibility, so its own screens must pass axe-core: every screen of the
 * route table (docs/PRODUCT.md#routes), signed out and signed in, with its dialogs open, has no violation of serious
 * or critical impact. Lesser ones are printed, not failed.
 */

const PASSWORD = 'Correct1horse';
/** A small generation (two pages) still takes a while on a loaded two-core machine. */
const GENERATION_TIMEOUT = 90_000;

let server: RunningServer;
let site: FixtureSite;
let browser: Browser;
const pages = new PageOpener(() => browser);
let userSeq = 0;

beforeAll(async () => {
  [server, site, browser] = await Promise.all([
    // Generated cases are audited on the screen, whatever they are: a small generation will do.
    spawnServer({ ...SMALL_EXPLORATION, ALLOWED_TARGETS: '127.0.0.1' }),
    serveFixtureSite(),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await pages.closeAll();
  await browser?.close();
  await site?.close();
  await server?.stop();
});

function newPage(width = 1440, height = 900): Promise<Page> {
  return pages.open({ width, height });
}

/**
 * Runs axe on the screen as it is (or on the part `within` selects); returns one line per serious or
 * critical failing node. A full-page screenshot and axe's findings go to e2e/artifacts/a11y-<screen>.*.
 */
async function audit(page: Page, screen: string, within?: string): Promise<string[]> {
  const violations = await runAxe(page, within);
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS_DIR, `a11y-${screen}.png`), fullPage: !within });
  await writeFile(join(ARTIFACTS_DIR, `a11y-${screen}.json`), JSON.stringify(violations, null, 2));
  const lesser = violations.filter((v) => !isBlocking(v));
  if (lesser.length > 0) {
    console.info(`${screen}: axe, not failing:\n  ${describeViolations(lesser).join('\n  ')}`);
  }
  return describeViolations(violations.filter(isBlocking)).map((line) => `${screen}: ${line}`);
}

/** A fresh account made through the API, signed in through the login screen. */
async function signedInPage(width = 1440, height = 900): Promise<Page> {
  userSeq += 1;
  const username = `a11y${userSeq}_${Date.now().toString(36)}`;
  const res = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      username,
      email: `${username}@example.com`,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    }),
  });
  expect(res.status).toBe(201);
  const page = await newPage(width, height);
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email or username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard');
  await page.locator('[data-testid="connection-status"][data-status="connected"]').waitFor();
  return page;
}

/** The landing page's rotating feature highlights (docs/PRODUCT.md#landing-page). */
const HIGHLIGHTS = [
  'AI-Powered Test Generation',
  'Natural Language Testing',
  'Real-Time Visual Monitoring',
  'Smart Test Orchestration',
];

/** Every signed-in route but /automation (docs/PRODUCT.md#routes), with a heading that says it has rendered. */
const SIGNED_IN_ROUTES: Array<[path: string, heading: string | RegExp]> = [
  ['/dashboard', /^Welcome back, /],
  ['/conversational', 'Conversational Mode'],
  ['/figma-comparison', 'Design Comparison'],
  ['/history', 'Test History'],
  ['/test-history', 'Test History'],
  ['/analytics', 'Analytics'],
  ['/settings', 'Settings'],
  ['/projects/web', 'Web applications'],
  ['/projects/mobile', 'Mobile apps'],
  ['/projects/api', 'API services'],
  ['/projects/new', 'New project'],
];

describe('accessibility: no serious or critical axe-core violation on any screen', () => {
  it('signed out: landing (and its two dialogs), login, register, forgot password', async () => {
    const page = await newPage();
    const failures: string[] = [];

    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    failures.push(...(await audit(page, 'landing')));

    // The hero's carousel draws a different preview for each highlight: each one, rotation paused.
    await page.getByRole('button', { name: 'Pause feature rotation' }).click();
    for (const [i, title] of HIGHLIGHTS.entries()) {
      await page.getByRole('button', { name: `Show ${title}` }).click();
      await page.getByTestId('active-highlight').getByRole('heading', { name: title }).waitFor();
      failures.push(
        ...(await audit(page, `landing-highlight-${i + 1}`, 'section[aria-roledescription="carousel"]')),
      );
    }

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Schedule Demo' })
      .click();
    const demo = page.getByRole('dialog', { name: 'Schedule a Demo' });
    await demo.waitFor();
    failures.push(...(await audit(page, 'landing-demo-request')));
    await page.keyboard.press('Escape');
    await demo.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Watch Demo' }).click();
    const walkthrough = page.getByRole('dialog', { name: 'See Argus in action' });
    await walkthrough.waitFor();
    failures.push(...(await audit(page, 'landing-watch-demo')));
    await page.keyboard.press('Escape');
    await walkthrough.waitFor({ state: 'detached' });

    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    failures.push(...(await audit(page, 'login')));

    await page.goto(`${server.url}/register`);
    await page.getByRole('button', { name: 'Create Account' }).waitFor();
    // The strength meter and the match indicator, shown.
    await page.getByLabel('Password', { exact: true }).fill('Abcdefgh');
    await page.getByLabel('Confirm password', { exact: true }).fill('Abcdefg');
    failures.push(...(await audit(page, 'register')));

    await page.goto(`${server.url}/forgot-password`);
    await page.getByRole('link', { name: 'Back to sign in' }).waitFor();
    failures.push(...(await audit(page, 'forgot-password')));

    expect(failures).toEqual([]);
  }, 120_000);

  it('signed out at 390 px: landing with its menu open', async () => {
    const page = await newPage(390, 844);
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Close menu' }).waitFor();
    expect(await audit(page, 'landing-menu-390')).toEqual([]);
  }, 60_000);

  it('signed in: the dashboard and every other screen of the shell', async () => {
    const page = await signedInPage();
    const failures: string[] = [];
    for (const [path, heading] of SIGNED_IN_ROUTES) {
      if (new URL(page.url()).pathname !== path) {
        await page.goto(`${server.url}${path}`);
        await page.locator('[data-testid="connection-status"][data-status="connected"]').waitFor();
      }
      await page.getByRole('heading', { name: heading }).first().waitFor();
      failures.push(...(await audit(page, path.slice(1).replaceAll('/', '-'))));
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('signed in at 390 px: the dashboard with the sidebar open', async () => {
    const page = await signedInPage(390, 844);
    await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('sidebar-backdrop').waitFor();
    expect(await audit(page, 'dashboard-sidebar-390')).toEqual([]);
  }, 60_000);

  it('automation: idle, with generated cases, after a run, the custom-case form and the viewer', async () => {
    const page = await signedInPage(1440, 1000);
    const failures: string[] = [];
    await page.getByTestId('sidebar').getByRole('link', { name: 'Automation Mode' }).click();
    await page.waitForURL((url) => url.pathname === '/automation');
    await page.locator('[data-testid="automation-connection"][data-status="connected"]').waitFor();
    failures.push(...(await audit(page, 'automation-idle')));

    // Generated cases.
    await page.getByLabel('Website URL').fill(`${site.url}/`);
    await page.getByRole('button', { name: 'Generate Test Cases' }).click();
    await page.locator('[data-testid="automation-status"][data-state="generating"]').waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: 'for full testing' })
      .first()
      .waitFor({ timeout: GENERATION_TIMEOUT });
    await page.locator('[data-testid="automation-status"][data-state="idle"]').waitFor();
    const cases = page.getByTestId('test-case');
    expect(await cases.count()).toBeGreaterThan(0);
    failures.push(...(await audit(page, 'automation-generated')));

    // The custom-case form, with a step the parser refuses; then a case that fails (team.html has an
    // image without alt text), so the log, the gallery and the results show a failure too.
    await page.getByRole('button', { name: 'Add custom test' }).click();
    const form = page.getByTestId('custom-case-form');
    await form.getByLabel('Test name').fill('Team images have alt text');
    const steps = form.getByLabel('Steps, one per line');
    await steps.fill('Navigate to /team.html\nVerfy all images have alt text');
    await page.getByTestId('custom-case-problem').waitFor();
    failures.push(...(await audit(page, 'automation-custom-form')));
    await steps.fill('Navigate to /team.html\nVerify all images have alt text');
    await page.getByTestId('custom-case-problem').waitFor({ state: 'detached' });
    await form.getByRole('button', { name: 'Add test' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Run Team images have alt text' }).click();
    await page
      .locator('[data-testid="test-result"][data-status="failed"]')
      .filter({ hasText: 'Team images have alt text' })
      .waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="automation-status"]:not([data-state="running"])').waitFor();
    failures.push(...(await audit(page, 'automation-after-run')));
    await page.getByRole('button', { name: 'Show details' }).click();
    failures.push(...(await audit(page, 'automation-log-details')));
    // Each status filter of the log, pressed (each has its own colour).
    for (const filter of ['success', 'error', 'pending']) {
      await page.getByTestId(`log-filter-${filter}`).click();
      failures.push(...(await audit(page, `automation-log-${filter}`, '[data-testid="execution-log"]')));
    }
    await page.getByTestId('log-filter-all').click();

    // The screenshot viewer.
    await page
      .getByTestId('screenshot')
      .first()
      .getByRole('button', { name: /^Open screenshot 1/ })
      .click();
    await page.getByTestId('screenshot-viewer').waitFor();
    failures.push(...(await audit(page, 'automation-viewer')));
    await page.keyboard.press('Escape');

    expect(failures).toEqual([]);
  }, 300_000);
});
