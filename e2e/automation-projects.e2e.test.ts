import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { DESK_ACCOUNTS, type DeskFixtureApp, serveFixtureApp } from '../fixtures/apps/serve';
import { PageOpener, pageToken, registerAccount, signIn, toast } from './support/app';
import { describeViolations, isBlocking, runAxe } from './support/axe';
import { launchBrowser, screenshot } from './support/browser';

/**
 * The automation screen on a project's environment (docs/PROJECTS.md), against the desk fixture app,
 * which shows nothing before its sign-in (a password and a TOTP code): pick the project, write a test
 * that only passes signed in, run it, save it to the project as a suite and find it on the project's
 * page; a reload keeps the project; a save over a newer version is refused and saved after a reload
 * of the suites; a wrong password fails the next run up front, with the reason shown.
 */

const ACCOUNT = DESK_ACCOUNTS.twoFactor;
const PROJECT = 'Desk';
const TEST = 'Tickets are listed';
const RUN_TIMEOUT = 90_000;

let server: RunningServer;
let desk: DeskFixtureApp;
let browser: Browser;
const pages = new PageOpener(() => browser);
let owner = '';
let projectId = '';

beforeAll(async () => {
  [server, desk, browser] = await Promise.all([
    spawnServer({ ALLOWED_TARGETS: '127.0.0.1' }),
    serveFixtureApp('desk'),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await pages.closeAll();
  await browser?.close();
  await desk?.close();
  await server?.stop();
});

/** One call of the project API with the page's login. */
async function api(page: Page, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server.url}/api/projects${path}`, {
    method,
    headers: { Authorization: `Bearer ${await pageToken(page)}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** The desk project, made through the API: one environment, the account's email, password and TOTP secret, a credentials login. */
async function createProject(page: Page): Promise<string> {
  const project = (await api(page, 'POST', '', {
    name: PROJECT,
    kind: 'web',
    environments: [{ name: 'staging', base_url: `${desk.url}/` }],
  })) as { id: string };
  for (const [name, value, secret] of [
    ['EMAIL', ACCOUNT.email, false],
    ['PASSWORD', ACCOUNT.password, true],
    ['TOTP', ACCOUNT.totpSecret, true],
  ] as const) {
    await api(page, 'PUT', `/${project.id}/variables`, { name, value, secret });
  }
  await api(page, 'PUT', `/${project.id}`, {
    login: {
      mode: 'credentials',
      login_url: '/login',
      username_variable: 'EMAIL',
      password_secret: 'PASSWORD',
      totp_secret: 'TOTP',
    },
  });
  return project.id;
}

async function axeFailures(page: Page, state: string): Promise<string[]> {
  const violations = await runAxe(page);
  return describeViolations(violations.filter(isBlocking)).map((line) => `${state}: ${line}`);
}

async function openAutomation(page: Page) {
  await page.goto(`${server.url}/automation`);
  await page.locator('[data-testid="automation-connection"][data-status="connected"]').waitFor();
}

function waitForState(page: Page, state: string, timeout = RUN_TIMEOUT) {
  return page.locator(`[data-testid="automation-status"][data-state="${state}"]`).waitFor({ timeout });
}

const SIGNED_IN_NOTE = `On ${PROJECT}/staging, signed in with the project's login`;

describe('the automation screen on a project environment', () => {
  it('picks the project, runs a test signed in, saves it as a suite and finds it on the project page', async () => {
    owner = await registerAccount(server.url, 'autoproj');
    const page = await pages.open();
    await signIn(page, server.url, owner);
    projectId = await createProject(page);
    await openAutomation(page);
    const a11y: string[] = [];
    const config = page.getByTestId('config-panel');
    const url = config.getByLabel('Website URL');

    // No project: a bare URL, as always.
    expect(await config.getByLabel('Project').inputValue()).toBe('');
    expect(await page.getByTestId('project-target-note').count()).toBe(0);

    // The project: its (only, default) environment follows and fills the URL; the screen says how it runs.
    await config.getByLabel('Project').selectOption({ label: `${PROJECT} (Web)` });
    await page.getByTestId('project-target-note').filter({ hasText: SIGNED_IN_NOTE }).waitFor();
    expect(await url.inputValue()).toBe(`${desk.url}/`);
    expect(await config.getByLabel('Environment').locator('option:checked').textContent()).toBe(
      'staging (default)',
    );
    await screenshot(page, 'automation-projects-config-1440');
    a11y.push(...(await axeFailures(page, 'project chosen')));
    // An address elsewhere is not the environment's: said under the URL, refused on Generate.
    await url.fill('http://127.0.0.1:9/');
    await page
      .getByTestId('project-target-note')
      .filter({ hasText: `Use an address on staging (${desk.url}/), or choose no project` })
      .waitFor();
    await page.getByRole('button', { name: 'Generate Test Cases' }).click();
    await toast(page, 'Use an address on staging').waitFor();
    a11y.push(...(await axeFailures(page, 'address elsewhere')));
    await url.fill(`${desk.url}/`);

    // A test only a signed-in visitor passes: the tickets are behind the desk's sign-in.
    await page.getByRole('button', { name: 'Add custom test' }).click();
    const custom = page.getByRole('form', { name: 'Custom test' });
    await custom.getByLabel('Test name').fill(TEST);
    await custom
      .getByLabel('Steps, one per line')
      .fill('Navigate to /tickets\nVerify heading "Tickets" is visible');
    await custom.getByRole('button', { name: 'Add test' }).click();
    await toast(page, `Added "${TEST}"`).waitFor();

    // Run it: the run signs in first (said in the progress panel), then passes.
    await page.getByRole('button', { name: `Run ${TEST}` }).click();
    await page
      .getByTestId('run-notice')
      .filter({ hasText: `Signing in to ${PROJECT}/staging` })
      .waitFor({ timeout: 15_000 });
    await waitForState(page, 'completed');
    await page
      .locator('[data-testid="test-result"][data-status="passed"]')
      .filter({ hasText: TEST })
      .waitFor();
    expect(await page.getByTestId('summary-passed').textContent()).toBe('1');

    // Save it to the project: the project chosen above comes first; a new suite needs a name.
    const cases = page.getByTestId('test-cases-panel');
    await cases.getByRole('button', { name: 'Save to project' }).click();
    const save = page.getByRole('form', { name: 'Save to project' });
    expect(await save.getByLabel('Project').locator('option:checked').textContent()).toBe(PROJECT);
    await save.getByRole('button', { name: 'Save suite' }).click();
    await save.getByText('Give the suite a name').waitFor();
    await save.getByLabel('Suite name').fill('Tickets');
    await save.scrollIntoViewIfNeeded();
    await screenshot(page, 'automation-projects-save-1440');
    a11y.push(...(await axeFailures(page, 'save form')));
    await save.getByRole('button', { name: 'Save suite' }).click();
    await toast(page, `Suite saved to ${PROJECT}`).waitFor();
    const saved = page.getByTestId('saved-to-project');
    expect(await saved.textContent()).toBe(`Saved "Tickets" v1 to ${PROJECT}. Open project`);
    await screenshot(page, 'automation-projects-saved-1440');

    // The project's page lists it, its steps relative to the environment.
    await saved.getByRole('link', { name: 'Open project' }).click();
    await page.waitForURL((u) => u.pathname === `/projects/${projectId}`);
    const suite = page.locator('[data-testid="saved-suite"][data-name="Tickets"]');
    await suite.waitFor();
    expect(await suite.textContent()).toMatch(/Tickets\s*v1\s*1 test/);
    const [stored] = (await api(page, 'GET', `/${projectId}/suites`)) as {
      test_cases: { test_name: string; url: string; steps: string[] }[];
    }[];
    expect(stored.test_cases).toMatchObject([
      { test_name: TEST, url: '', steps: ['Navigate to /tickets', 'Verify heading "Tickets" is visible'] },
    ]);
    expect(a11y).toEqual([]);
  }, 180_000);

  it('keeps the project through a reload; a save over a newer version is refused, then saved after a reload', async () => {
    expect(projectId).not.toBe('');
    const page = await pages.open();
    await signIn(page, server.url, owner);
    await openAutomation(page);
    const config = page.getByTestId('config-panel');
    // The session kept the project environment with the test.
    await page.getByTestId('project-target-note').filter({ hasText: SIGNED_IN_NOTE }).waitFor();
    expect(await config.getByLabel('Project').locator('option:checked').textContent()).toBe(
      `${PROJECT} (Web)`,
    );
    expect(await config.getByLabel('Website URL').inputValue()).toBe(`${desk.url}/`);
    await page.getByTestId('test-case').filter({ hasText: TEST }).waitFor();

    // A new version of "Tickets", opened at v1 …
    await page.getByRole('button', { name: 'Save to project' }).click();
    const save = page.getByRole('form', { name: 'Save to project' });
    const suiteField = save.getByLabel('Suite', { exact: true });
    await suiteField.locator('option', { hasText: 'Tickets (v1, 1 test)' }).waitFor({ state: 'attached' });
    await suiteField.selectOption({ label: 'Tickets (v1, 1 test)' });
    await save.getByText('Saved as version 2 of Tickets.').waitFor();
    // … while someone else saves v2.
    const [suite] = (await api(page, 'GET', `/${projectId}/suites`)) as {
      id: string;
      test_cases: unknown[];
    }[];
    await api(page, 'PUT', `/${projectId}/suites/${suite.id}`, {
      name: 'Tickets',
      base_version: 1,
      test_cases: suite.test_cases,
      change_note: 'Edited elsewhere',
    });
    await save.getByRole('button', { name: 'Save suite' }).click();
    const error = save.getByTestId('save-to-project-error');
    await error
      .getByText('This suite is at version 2 since you opened version 1; reload it and save again')
      .waitFor();
    await error.scrollIntoViewIfNeeded();
    await screenshot(page, 'automation-projects-conflict-1440');
    const a11y = await axeFailures(page, 'save conflict');
    await error.getByRole('button', { name: 'Reload suites' }).click();
    await save.getByText('Saved as version 3 of Tickets.').waitFor();
    await save.getByRole('button', { name: 'Save suite' }).click();
    await toast(page, `Suite saved to ${PROJECT}`).waitFor();
    expect(await page.getByTestId('saved-to-project').textContent()).toContain('Saved "Tickets" v3');

    // A wrong password: the next run fails up front, and says why.
    await api(page, 'PUT', `/${projectId}/variables`, {
      name: 'PASSWORD',
      value: 'not-the-password',
      secret: true,
    });
    await page.getByRole('button', { name: `Run ${TEST}` }).click();
    await toast(page, `Sign-in failed for ${PROJECT}/staging:`).waitFor({ timeout: RUN_TIMEOUT });
    await waitForState(page, 'failed', 5000);
    expect(a11y).toEqual([]);
  }, 180_000);

  it('fits a narrow screen: the picker, the test and the save form at 390 px', async () => {
    expect(projectId).not.toBe('');
    const page = await pages.open({ width: 390, height: 844 });
    await signIn(page, server.url, owner);
    await openAutomation(page);
    await page.getByTestId('project-target-note').filter({ hasText: SIGNED_IN_NOTE }).waitFor();
    const overflow = () =>
      page.evaluate(() => {
        const d = (
          globalThis as unknown as {
            document: { documentElement: { scrollWidth: number; clientWidth: number } };
          }
        ).document.documentElement;
        return d.scrollWidth - d.clientWidth;
      });
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByTestId('config-panel').scrollIntoViewIfNeeded();
    await screenshot(page, 'automation-projects-config-390');
    const a11y = await axeFailures(page, 'automation, 390 px');
    await page.getByRole('button', { name: 'Save to project' }).click();
    const save = page.getByRole('form', { name: 'Save to project' });
    await save
      .getByLabel('Suite', { exact: true })
      .locator('option', { hasText: 'Tickets (v3' })
      .waitFor({ state: 'attached' });
    await save.scrollIntoViewIfNeeded();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'automation-projects-save-390');
    a11y.push(...(await axeFailures(page, 'save form, 390 px')));
    expect(a11y).toEqual([]);
  }, 90_000);
});
