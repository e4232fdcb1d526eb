import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { PASSWORD, PageOpener, pageToken, registerAccount, signIn, toast } from './support/app';
import { describeViolations, isBlocking, runAxe } from './support/axe';
import { launchBrowser, screenshot } from './support/browser';

/**
 * The Projects screens against the real server (docs/PROJECTS.md): create a project with two
 * environments through 'Add New Project', add a variable and a secret (whose value never shows in the
 * page nor in any answer the page receives), set a credentials login, find the project in the sidebar
 * and its kind's page; another user sees none of it, and its address answers 'Project not found'.
 */

const SECRET = 'Hunter2-e2e-secret-7731';
const PROJECT = 'Online shop';

let server: RunningServer;
let browser: Browser;
const pages = new PageOpener(() => browser);

/** The first user's account and project, made by the first test and opened again by the others. */
let owner = '';
let projectId = '';

beforeAll(async () => {
  [server, browser] = await Promise.all([spawnServer(), launchBrowser()]);
});

afterAll(async () => {
  await pages.closeAll();
  await browser?.close();
  await server?.stop();
});

/** Serious or critical axe-core findings on the page as it is, one line each. */
async function axeFailures(page: Page, state: string): Promise<string[]> {
  const violations = await runAxe(page);
  return describeViolations(violations.filter(isBlocking)).map((line) => `${state}: ${line}`);
}

/** Every API answer the page receives from now on, as text (bodies read as they arrive). */
function recordAnswers(page: Page): { url: string; body: string }[] {
  const answers: { url: string; body: string }[] = [];
  page.on('response', (response) => {
    if (!response.url().includes('/api/')) return;
    response
      .text()
      .then((body) => answers.push({ url: response.url(), body }))
      .catch(() => {});
  });
  return answers;
}

/** How far the page is wider than the window (0 when nothing sticks out). */
async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const d = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement;
    return d.scrollWidth - d.clientWidth;
  });
}

/** Saves a suite through the API (what Automation Mode will do), so the page has one to show. */
async function saveSuite(page: Page, body: unknown, suiteId?: string): Promise<{ id: string }> {
  const token = await pageToken(page);
  const res = await fetch(`${server.url}/api/projects/${projectId}/suites${suiteId ? `/${suiteId}` : ''}`, {
    method: suiteId ? 'PUT' : 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`Saving the suite answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { id: string };
}

describe('the Projects screens', () => {
  it('create a project with two environments, a variable, a secret and a login; list it in the sidebar', async () => {
    owner = await registerAccount(server.url, 'proj');
    const page = await pages.open();
    await signIn(page, server.url, owner, PASSWORD);
    const sidebar = page.getByTestId('sidebar');
    const main = page.getByRole('main');
    const a11y: string[] = [];

    // No projects yet: the kind page says what to do.
    await sidebar.getByRole('link', { name: 'Web Application', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/projects/web');
    await main.getByRole('heading', { level: 1, name: 'Web applications' }).waitFor();
    await page.getByTestId('projects-empty').getByText('No web applications yet').waitFor();
    expect(await sidebar.getByTestId('sidebar-project').count()).toBe(0);

    // The create form: an empty submit shows the shared schema's messages by their fields.
    await sidebar.getByRole('link', { name: 'Add New Project', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/projects/new');
    await main.getByRole('heading', { level: 1, name: 'New project' }).waitFor();
    const form = page.getByRole('form', { name: 'New project' });
    const rows = form.getByTestId('environment-row');
    expect(await rows.nth(0).getByLabel('Environment name').inputValue()).toBe('production');
    await form.getByRole('button', { name: 'Create project' }).click();
    await form.getByText('Name is required').waitFor();
    await rows.nth(0).getByText('Please enter a valid URL (including http:// or https://)').waitFor();
    a11y.push(...(await axeFailures(page, 'new project, errors shown')));

    await form.getByLabel('Name', { exact: true }).fill(PROJECT);
    await form.getByLabel('Description (optional)').fill('The storefront and its checkout.');
    await rows.nth(0).getByLabel('Base URL').fill('https://shop.example.com');
    await form.getByRole('button', { name: 'Add environment' }).click();
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(1).getByLabel('Environment name').inputValue()).toBe('staging');
    // An address the server's browser may not open is refused by the server when the form is sent,
    // and said under its field.
    await rows.nth(1).getByLabel('Base URL').fill('http://10.0.0.8/');
    await form.getByRole('button', { name: 'Create project' }).click();
    await rows
      .nth(1)
      .getByText(
        'This server may not test this address: 10.0.0.8 is a private-network address; add it to ALLOWED_TARGETS to test it',
      )
      .waitFor();
    await screenshot(page, 'projects-new-refused-address-1440');
    expect(new URL(page.url()).pathname).toBe('/projects/new');
    await rows.nth(1).getByLabel('Base URL').fill('https://staging.shop.example.com');
    expect(await form.getByText('Name is required').count()).toBe(0);
    await screenshot(page, 'projects-new-1440');
    a11y.push(...(await axeFailures(page, 'new project, filled')));

    await form.getByRole('button', { name: 'Create project' }).click();
    await toast(page, 'Project created').waitFor();
    await page.waitForURL(
      (url) => /^\/projects\/[^/]+$/.test(url.pathname) && url.pathname !== '/projects/new',
    );
    projectId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
    await main.getByRole('heading', { level: 1, name: PROJECT }).waitFor();
    expect(await page.getByTestId('project-kind').textContent()).toBe('Web application');
    expect(await page.getByTestId('project-description').textContent()).toBe(
      'The storefront and its checkout.',
    );
    const environments = page.getByTestId('environments-panel').getByTestId('environment');
    await environments.nth(1).waitFor();
    expect(await environments.allTextContents()).toEqual([
      expect.stringMatching(/^productionDefault.*https:\/\/shop\.example\.com$/),
      expect.stringMatching(/^staging.*https:\/\/staging\.shop\.example\.com/),
    ]);
    // The sidebar lists it at once.
    await sidebar.getByTestId('sidebar-project').filter({ hasText: PROJECT }).waitFor();

    // A variable, project-wide.
    const variables = page.getByTestId('variables-panel');
    await variables.getByRole('button', { name: 'Add variable' }).click();
    let variableForm = variables.getByRole('form', { name: 'New variable' });
    await variableForm.getByLabel('Name', { exact: true }).fill('USERNAME');
    await variableForm.getByLabel('Value', { exact: true }).fill('buyer@example.com');
    await variableForm.getByRole('button', { name: 'Save variable' }).click();
    await toast(page, 'Variable USERNAME saved').waitFor();
    const projectWide = variables.locator('[data-testid="variable-scope"][data-scope="Project-wide"]');
    await projectWide.locator('[data-testid="variable-row"][data-name="USERNAME"]').waitFor();
    expect(await projectWide.getByTestId('variable-value').textContent()).toBe('buyer@example.com');

    // A secret, staging's own, typed into a password field. From here on no answer may carry it.
    const answers = recordAnswers(page);
    await variables.getByRole('button', { name: 'Add variable' }).click();
    variableForm = variables.getByRole('form', { name: 'New variable' });
    await variableForm.getByText('Secret', { exact: true }).click();
    await variableForm.getByLabel('Name', { exact: true }).fill('PASSWORD');
    const secretField = variableForm.getByLabel('Secret value', { exact: true });
    expect(await secretField.getAttribute('type')).toBe('password');
    await secretField.fill(SECRET);
    await variableForm.getByLabel('Used in').selectOption({ label: 'staging only' });
    await variableForm.getByRole('button', { name: 'Save secret' }).click();
    await toast(page, 'Secret PASSWORD saved').waitFor();
    const staging = variables.locator('[data-testid="variable-scope"][data-scope="staging"]');
    const secretRow = staging.locator('[data-testid="variable-row"][data-name="PASSWORD"]');
    await secretRow.waitFor();
    expect(await secretRow.getByTestId('secret-value').textContent()).toContain('••••');
    await secretRow.getByRole('button', { name: 'Replace PASSWORD' }).waitFor();
    expect(await page.content()).not.toContain(SECRET);

    // The login: credentials, choosing the variable and the secret by name.
    const login = page.getByTestId('login-panel');
    await login.getByText('Credentials', { exact: true }).click();
    await login.getByLabel('Sign-in page').fill('/login');
    expect(await login.getByLabel('Password secret').locator('option').allTextContents()).toEqual([
      'Choose a secret',
      'PASSWORD',
    ]);
    await login.getByLabel('Username variable').selectOption('USERNAME');
    await login.getByLabel('Password secret').selectOption('PASSWORD');
    await login.getByRole('button', { name: 'Save login' }).click();
    await toast(page, 'Login saved').waitFor();
    await login.getByText('Signs in at /login as {{USERNAME}}').waitFor();
    // One account: the panel says lanes share its data, and how to give each lane one of its own.
    expect(await login.getByTestId('login-accounts').textContent()).toMatch(
      /^One account: .* add USERNAME_1 and PASSWORD_1, USERNAME_2 and PASSWORD_2, and so on\.$/,
    );

    // Saved suites (saved through the API, as Automation Mode will), two versions: the panel lists them.
    const suite = await saveSuite(page, {
      name: 'Checkout',
      test_cases: [{ test_name: 'Pay by card', steps: ['Navigate to /cart', 'Click "Pay"'] }],
    });
    await saveSuite(
      page,
      {
        name: 'Checkout',
        base_version: 1,
        test_cases: [
          { test_name: 'Pay by card', steps: ['Navigate to /cart', 'Click "Pay"'] },
          { test_name: 'Apply a coupon', steps: ['Navigate to /cart', 'Fill "Coupon" with "SAVE10"'] },
        ],
      },
      suite.id,
    );
    await page.reload();
    const suites = page.getByTestId('suites-panel');
    const saved = suites.locator('[data-testid="saved-suite"][data-name="Checkout"]');
    await saved.waitFor();
    expect(await saved.textContent()).toMatch(/Checkout\s*v2\s*2 tests/);
    await saved.getByRole('button', { name: /^Checkout v2/ }).click();
    await saved.getByTestId('suite-details').getByText('Apply a coupon').waitFor();
    expect(await saved.getByTestId('suite-version').count()).toBe(2);
    // Export to Playwright: the zip downloads with the user's token, and the panel says what it holds.
    const download = page.waitForEvent('download');
    await saved.getByRole('button', { name: 'Export Checkout to Playwright' }).click();
    expect((await download).suggestedFilename()).toBe('Checkout-playwright.zip');
    await saved.getByText('Exported 2 test cases; 0 lines left as TODO comments').waitFor();
    await page.getByTestId('runs-panel').getByText('No runs yet').waitFor();

    // After the reload: the login as saved, the secret still only '••••', nowhere in the page.
    expect(await login.getByLabel('Username variable').inputValue()).toBe('USERNAME');
    expect(await login.getByLabel('Password secret').inputValue()).toBe('PASSWORD');
    await secretRow.waitFor();
    expect(await page.content()).not.toContain(SECRET);
    await page.screenshot({ path: '/tmp/projects-project-full.png', fullPage: true });
    await screenshot(page, 'projects-project-1440');
    a11y.push(...(await axeFailures(page, 'project page')));

    // The variable list as the page reads it: the secret named, its value null.
    const token = await pageToken(page);
    const listed = await fetch(`${server.url}/api/projects/${projectId}/variables`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const listedText = await listed.text();
    expect(listedText).toContain('"PASSWORD"');
    expect(listedText).not.toContain(SECRET);

    // Replacing the secret: a password field again, empty; cancelled here.
    await secretRow.getByRole('button', { name: 'Replace PASSWORD' }).click();
    const replace = staging.getByRole('form', { name: 'Replace PASSWORD' });
    const replaceField = replace.getByLabel('New value of PASSWORD');
    expect(await replaceField.getAttribute('type')).toBe('password');
    expect(await replaceField.inputValue()).toBe('');
    await replace.getByRole('button', { name: 'Cancel' }).click();

    // Every answer the page received since the secret was typed: none holds it.
    await page.waitForLoadState('networkidle');
    expect(answers.length).toBeGreaterThan(5);
    expect(answers.filter((answer) => answer.body.includes(SECRET)).map((a) => a.url)).toEqual([]);

    // Open it from the sidebar, from another screen; and from its kind's page.
    await sidebar.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/settings');
    await sidebar.getByRole('link', { name: PROJECT, exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/projects/${projectId}`);
    await main.getByRole('heading', { level: 1, name: PROJECT }).waitFor();
    expect(await sidebar.getByRole('link', { name: PROJECT, exact: true }).getAttribute('aria-current')).toBe(
      'page',
    );
    await sidebar.getByRole('link', { name: 'Web Application', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/projects/web');
    await page.getByTestId('project-card').filter({ hasText: PROJECT }).waitFor();
    await screenshot(page, 'projects-web-1440');
    a11y.push(...(await axeFailures(page, 'web applications')));
    await sidebar.getByRole('link', { name: 'API Service', exact: true }).click();
    await page.getByTestId('api-not-testable').waitFor();
    await page.getByTestId('projects-empty').getByText('No API services yet').waitFor();
    a11y.push(...(await axeFailures(page, 'api services')));
    expect(a11y).toEqual([]);
  }, 120_000);

  it("another user sees none of it: not in the sidebar, and its address answers 'Project not found'", async () => {
    expect(projectId).not.toBe('');
    const other = await registerAccount(server.url, 'other');
    const page = await pages.open();
    await signIn(page, server.url, other, PASSWORD);
    await page.goto(`${server.url}/projects/web`);
    await page.getByTestId('projects-empty').waitFor();
    expect(await page.getByTestId('sidebar').getByTestId('sidebar-project').count()).toBe(0);
    expect(await page.content()).not.toContain(PROJECT);

    await page.goto(`${server.url}/projects/${projectId}`);
    await page.getByRole('main').getByRole('heading', { level: 1, name: 'Project not found' }).waitFor();
    expect(await page.content()).not.toContain(PROJECT);
    await screenshot(page, 'projects-not-found-1440');
    expect(await axeFailures(page, 'not found')).toEqual([]);
  }, 60_000);

  it('fits a narrow screen: the project page, the create form and the sidebar at 390 px', async () => {
    expect(projectId).not.toBe('');
    const page = await pages.open({ width: 390, height: 844 });
    await signIn(page, server.url, owner, PASSWORD);
    await page.goto(`${server.url}/projects/${projectId}`);
    await page.getByRole('main').getByRole('heading', { level: 1, name: PROJECT }).waitFor();
    await page.locator('[data-testid="variable-row"][data-name="PASSWORD"]').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await page.content()).not.toContain(SECRET);
    const a11y = await axeFailures(page, 'project page, 390 px');
    await page.screenshot({ path: '/tmp/projects-project-390-full.png', fullPage: true });
    await screenshot(page, 'projects-project-390');
    await page.getByTestId('variables-panel').scrollIntoViewIfNeeded();
    await screenshot(page, 'projects-variables-390');

    await page.goto(`${server.url}/projects/new?kind=mobile`);
    const form = page.getByRole('form', { name: 'New project' });
    await form.getByRole('button', { name: 'Add environment' }).click();
    await form.getByRole('button', { name: 'Create project' }).click();
    await form.getByText('Name is required').waitFor();
    expect(await page.getByRole('radio', { name: 'Mobile' }).isChecked()).toBe(true);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    a11y.push(...(await axeFailures(page, 'new project, 390 px')));
    await page.screenshot({ path: '/tmp/projects-new-390-full.png', fullPage: true });
    await screenshot(page, 'projects-new-390');

    await page.getByTestId('sidebar-toggle').click();
    const sidebar = page.getByTestId('sidebar');
    await sidebar.getByRole('link', { name: PROJECT, exact: true }).waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'projects-sidebar-390');
    await sidebar.getByRole('link', { name: PROJECT, exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/projects/${projectId}`);
    expect(a11y).toEqual([]);
  }, 90_000);
});
