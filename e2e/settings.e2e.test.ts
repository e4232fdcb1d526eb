import { type Responder, type ScriptedModelServer, startScriptedModelServer } from '@argus/ai/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { PASSWORD, PageOpener, pageToken, registerAccount, signIn, toast } from './support/app';
import { describeViolations, isBlocking, runAxe } from './support/axe';
import { launchBrowser, screenshot } from './support/browser';

/**
 * The Settings screen against the real server and a scripted model server on 127.0.0.1 (which
 * ALLOWED_TARGETS names, so a user's base URL may point at it): save a provider, see the key masked
 * after a reload, test the connection (a reply, then a 401), change the password and sign in with it.
 */

const NEW_PASSWORD = 'Battery9staple';
const KEY = 'sk-test-abcd1234';
const TOKEN_STORAGE_KEY = 'argus.token';
/** A 1 × 1 PNG. */
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

let server: RunningServer;
let model: ScriptedModelServer;
let browser: Browser;
const pages = new PageOpener(() => browser);
let reply: Responder = () => ({ text: 'OK from the scripted model', inputTokens: 9, outputTokens: 4 });

beforeAll(async () => {
  [server, model, browser] = await Promise.all([
    spawnServer({ ALLOWED_TARGETS: '127.0.0.1' }),
    startScriptedModelServer((request, index) => reply(request, index)),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await pages.closeAll();
  await browser?.close();
  await model?.close();
  await server?.stop();
});

/** Serious or critical axe-core findings on the page as it is, one line each. */
async function axeFailures(page: Page, state: string): Promise<string[]> {
  const violations = await runAxe(page);
  return describeViolations(violations.filter(isBlocking)).map((line) => `${state}: ${line}`);
}

/** GET /api/settings with the page's own token, as the page would. */
async function settingsAnswer(page: Page): Promise<string> {
  return page.evaluate(async (key) => {
    const w = globalThis as unknown as {
      localStorage: { getItem(k: string): string | null };
      fetch: (url: string, init: unknown) => Promise<{ text(): Promise<string> }>;
    };
    const res = await w.fetch('/api/settings', {
      headers: { Authorization: `Bearer ${w.localStorage.getItem(key)}` },
    });
    return res.text();
  }, TOKEN_STORAGE_KEY);
}

describe('the Settings screen', () => {
  it('saves a provider, shows the key masked after a reload, tests the connection, changes the password', async () => {
    const username = await registerAccount(server.url, 'set');

    const page = await pages.open();
    await signIn(page, server.url, username, PASSWORD);
    await page.getByTestId('sidebar').getByRole('link', { name: 'Settings', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/settings');
    await page.getByRole('main').getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    const engine = page.getByTestId('ai-engine-panel');
    await engine.getByTestId('effective-engine').filter({ hasText: 'Built-in (rule-based)' }).waitFor();
    expect(await engine.getByTestId('server-default').textContent()).toBe('Built-in (rule-based)');

    // Choose an OpenAI-compatible server: the scripted one.
    await engine.getByLabel('Provider').selectOption('openai-compatible');
    await engine.getByLabel('Model', { exact: true }).fill('llama3.1');
    await engine.getByLabel('Base URL', { exact: true }).fill(model.baseUrl);
    await engine.getByLabel('API key', { exact: true }).fill(KEY);
    await engine.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'AI engine settings saved').waitFor();
    await engine
      .getByTestId('effective-engine')
      .filter({ hasText: 'LLM (openai-compatible · llama3.1)' })
      .waitFor();

    // After a reload the key is only ever shown masked: not in the page, not in the API's answer.
    await page.reload();
    await engine.getByTestId('stored-secret').waitFor();
    expect(await engine.getByTestId('stored-secret').textContent()).toBe('Stored: sk-…1234');
    const keyField = engine.getByLabel('API key', { exact: true });
    expect(await keyField.inputValue()).toBe('');
    expect(await keyField.getAttribute('placeholder')).toContain('sk-…1234');
    expect(await engine.getByLabel('Provider').inputValue()).toBe('openai-compatible');
    expect(await engine.getByLabel('Base URL', { exact: true }).inputValue()).toBe(model.baseUrl);
    expect(await page.content()).not.toContain(KEY);
    const answer = await settingsAnswer(page);
    expect(answer).toContain('sk-…1234');
    expect(answer).not.toContain(KEY);
    expect(answer).not.toContain('abcd1234');

    // Test connection: the scripted model's reply, sent with the stored key.
    const before = model.requests.length;
    await engine.getByRole('button', { name: 'Test connection' }).click();
    const result = engine.getByTestId('connection-result');
    await result.waitFor();
    expect(await result.getAttribute('data-ok')).toBe('true');
    expect(await result.textContent()).toMatch(
      /^Connected to llama3\.1 \(openai-compatible\) in \d+ ms\. It replied: "OK from the scripted model"\.$/,
    );
    expect(model.requests[before]?.headers.authorization).toBe(`Bearer ${KEY}`);
    // The call counts in this month's usage.
    await page.getByTestId('usage-calls').filter({ hasText: /^1$/ }).waitFor();
    expect(await page.getByTestId('usage-input-tokens').textContent()).toBe('9');

    // A budget.
    await page.getByLabel('Monthly budget (USD)').fill('5');
    await page.getByRole('button', { name: 'Save budget' }).click();
    await toast(page, 'Monthly budget saved').waitFor();

    await page.screenshot({ path: '/tmp/settings-desktop.png', fullPage: true });
    await screenshot(page, 'settings-1440');
    const a11y = await axeFailures(page, 'stored key, connection ok');

    // A provider that refuses the key: the message says to check it.
    reply = () => ({ status: 401, message: 'Incorrect API key provided' });
    await engine.getByRole('button', { name: 'Test connection' }).click();
    await engine.locator('[data-testid="connection-result"][data-ok="false"]').waitFor();
    expect(await result.textContent()).toContain('check your API key in Settings');
    a11y.push(...(await axeFailures(page, 'connection refused')));
    await page.screenshot({ path: '/tmp/settings-desktop-401.png', fullPage: false });

    // A base URL to cloud metadata is refused, next to the field.
    await engine.getByLabel('Base URL', { exact: true }).fill('http://169.254.169.254/latest');
    await engine.getByRole('button', { name: 'Save', exact: true }).click();
    await engine
      .getByText(/^The server may not call this base URL: 169\.254\.169\.254 is a link-local/)
      .waitFor();
    await engine.getByLabel('Base URL', { exact: true }).fill(model.baseUrl);

    // Change the password, then sign in with the new one.
    const password = page.getByTestId('password-panel');
    await password.getByLabel('Current password', { exact: true }).fill(PASSWORD);
    await password.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await password.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
    await password.getByTestId('password-match').filter({ hasText: 'Passwords match' }).waitFor();
    a11y.push(...(await axeFailures(page, 'password form filled')));
    expect(a11y).toEqual([]);
    await password.getByRole('button', { name: 'Change password' }).click();
    await toast(page, 'Password changed successfully!').waitFor();
    expect(await password.getByLabel('Current password', { exact: true }).inputValue()).toBe('');
    // The fresh token the change answered with is in use: the screen still works.
    await page.reload();
    await engine.getByTestId('stored-secret').waitFor();

    await page.getByTestId('sidebar').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    const old = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      body: new URLSearchParams({ username, password: PASSWORD }),
    });
    expect(old.status).toBe(401);
    await signIn(page, server.url, username, NEW_PASSWORD);
  }, 120_000);

  it('makes an API token shown once, which works until it is revoked', async () => {
    const username = await registerAccount(server.url, 'tok');
    const page = await pages.open();
    await signIn(page, server.url, username, PASSWORD);
    await page.goto(`${server.url}/settings`);
    const panel = page.getByTestId('api-tokens-panel');
    await panel.getByText('No API tokens yet.').waitFor();
    await panel.getByLabel('Token name').fill('GitHub Actions');
    await panel.getByLabel('Scope').selectOption('run');
    await panel.getByLabel('Expires after').selectOption('30');
    await panel.getByRole('button', { name: 'Create token' }).click();
    await toast(page, 'API token created').waitFor();
    const value = (await panel.getByTestId('new-token-value').textContent()) ?? '';
    expect(value).toMatch(/^argus_/);
    const row = panel.getByTestId('api-token').filter({ hasText: 'GitHub Actions' });
    await row.filter({ hasText: 'Run suites' }).waitFor();
    expect(await row.textContent()).toContain('last used never');
    expect(await axeFailures(page, 'token shown')).toEqual([]);
    await screenshot(page, 'settings-api-token-1440');

    const used = await fetch(`${server.url}/api/projects`, { headers: { authorization: `Bearer ${value}` } });
    expect(used.status).toBe(200);
    await panel.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    await row.waitFor();
    // Shown once: after a reload the page holds its hint, never its value.
    expect(await page.content()).not.toContain(value);
    expect(await row.textContent()).not.toContain('last used never');

    await row.getByRole('button', { name: 'Revoke GitHub Actions' }).click();
    await toast(page, 'Token “GitHub Actions” revoked').waitFor();
    await row.getByText('Revoked', { exact: true }).waitFor();
    const refused = await fetch(`${server.url}/api/projects`, {
      headers: { authorization: `Bearer ${value}` },
    });
    expect(refused.status).toBe(401);
  }, 90_000);

  it('fits a narrow screen', async () => {
    reply = () => ({ text: 'OK' });
    const username = await registerAccount(server.url, 'narrow');
    const page = await pages.open({ width: 390, height: 844 });
    await signIn(page, server.url, username, PASSWORD);
    await page.goto(`${server.url}/settings`);
    const engine = page.getByTestId('ai-engine-panel');
    await engine.getByLabel('Provider').selectOption('openai');
    await engine.getByLabel('Model', { exact: true }).fill('gpt-4o-mini');
    await engine.getByLabel('Base URL (optional)', { exact: true }).fill(model.baseUrl);
    await engine.getByLabel('API key', { exact: true }).fill('sk-narrow-0000000099');
    await engine.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'AI engine settings saved').waitFor();
    await engine.getByTestId('stored-secret').filter({ hasText: 'sk-…0099' }).waitFor();
    await engine.getByRole('button', { name: 'Test connection' }).click();
    await engine.locator('[data-testid="connection-result"][data-ok="true"]').waitFor();
    // Nothing wider than the screen.
    const overflow = await page.evaluate(() => {
      const d = (
        globalThis as unknown as {
          document: { documentElement: { scrollWidth: number; clientWidth: number } };
        }
      ).document.documentElement;
      return d.scrollWidth - d.clientWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await axeFailures(page, '390 px')).toEqual([]);
    await page.getByTestId('api-tokens-panel').getByRole('button', { name: 'Create token' }).waitFor();
    await page.screenshot({ path: '/tmp/settings-narrow.png', fullPage: true });
    await screenshot(page, 'settings-390');
  }, 90_000);
  it('shows what the user stores, against the quota, and how long history is kept', async () => {
    const username = await registerAccount(server.url, 'store');
    const page = await pages.open();
    await signIn(page, server.url, username, PASSWORD);
    // A run with one screenshot, recorded through the API.
    const token = await pageToken(page);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${server.url}/api/automation/test-runs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: 'https://shop.example', status: 'completed' }),
    });
    expect(created.status).toBe(201);
    const run = (await created.json()) as { id: string };
    const uploaded = await fetch(`${server.url}/api/screenshots/upload`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ test_run_id: run.id, test_case_name: 'Home', image_data: PIXEL_PNG }),
    });
    expect(uploaded.ok).toBe(true);

    await page.goto(`${server.url}/settings`);
    const panel = page.getByTestId('storage-panel');
    await panel.getByText('History is kept for 30 days.').waitFor();
    const bytes = Buffer.from(PIXEL_PNG, 'base64').length;
    expect(await panel.getByTestId('storage-total').textContent()).toBe(`${bytes} bytesof 1 GiB`);
    expect(await panel.getByTestId('storage-screenshots').textContent()).toBe(`${bytes} bytes`);
    // A sliver of the quota still shows on the bar.
    expect(
      await panel
        .getByRole('progressbar', { name: 'Storage used of your quota' })
        .getAttribute('aria-valuenow'),
    ).toBe('1');
    expect(await panel.getByTestId('storage-history').textContent()).toMatch(
      /^1 test run and 0 design comparisons kept; the oldest run is from /,
    );
    expect(await panel.getByTestId('storage-sweep').textContent()).toContain('No clean-up has run yet');
    const a11y = await axeFailures(page, 'storage, 1440 px');
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-storage-1440');
    await panel.screenshot({ path: '/tmp/shots/settings-storage-panel-1440.png' });

    await page.setViewportSize({ width: 390, height: 844 });
    await panel.scrollIntoViewIfNeeded();
    const box = await panel.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    a11y.push(...(await axeFailures(page, 'storage, 390 px')));
    await screenshot(page, 'settings-storage-390');
    await panel.screenshot({ path: '/tmp/shots/settings-storage-panel-390.png' });
    expect(a11y).toEqual([]);
  }, 60_000);
});
