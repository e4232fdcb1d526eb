import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { type FixtureSite, serveFixtureSite } from '../fixtures/site/serve';
import { PageOpener, pageToken, registerAccount, signIn, toast } from './support/app';
import { describeViolations, isBlocking, runAxe, waitForSettledAnimations } from './support/axe';
import { launchBrowser, screenshot } from './support/browser';

/**
 * 'Use as login' on the conversational screen: a conversation signs in to the fixture shop (built-in
 * chat engine), and its steps become a project's recorded login, with the typed password replaced by
 * the project's {{PASSWORD}} secret. Desktop and 390 px, axe clean.
 */

const PROJECT = 'Acme shop';

let server: RunningServer;
let site: FixtureSite;
let browser: Browser;
const pages = new PageOpener(() => browser);

beforeAll(async () => {
  [server, site, browser] = await Promise.all([
    spawnServer({ ALLOWED_TARGETS: '127.0.0.1' }),
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

async function api(page: Page, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server.url}/api/projects${path}`, {
    method,
    headers: { Authorization: `Bearer ${await pageToken(page)}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/**
 * Sends `text` and waits for the answer. The typing indicator can come and go before a wait for it
 * starts (the built-in chat is quick), so the wait is on what stays: the message in the chat, then a
 * new answer after it.
 */
async function say(page: Page, text: string) {
  const input = page.getByTestId('chat-input');
  const asked = page.locator('[data-testid="chat-message"][data-role="user"]');
  const answers = page.locator('[data-testid="chat-message"][data-role="assistant"]');
  const [askedBefore, answered] = [await asked.count(), await answers.count()];
  await input.fill(text);
  await input.press('Enter');
  await expect.poll(() => asked.count(), { timeout: 30_000 }).toBe(askedBefore + 1);
  await expect.poll(() => answers.count(), { timeout: 60_000 }).toBeGreaterThan(answered);
  await page.getByTestId('typing-indicator').waitFor({ state: 'detached', timeout: 60_000 });
}

async function axeFailures(page: Page): Promise<string[]> {
  return describeViolations((await runAxe(page)).filter(isBlocking));
}

describe("'Use as login'", () => {
  it('saves what a conversation did to sign in as a project login, without the typed password', async () => {
    const page = await pages.open({ width: 1440, height: 1000, timeout: 30_000 });
    await signIn(page, server.url, await registerAccount(server.url, 'convlogin'));
    const project = (await api(page, 'POST', '', {
      name: PROJECT,
      kind: 'web',
      environments: [{ name: 'local', base_url: site.url }],
    })) as { id: string };

    // A conversation signs in to the shop.
    await page.goto(`${server.url}/conversational`);
    await page.locator('[data-testid="conversational-connection"][data-status="connected"]').waitFor();
    await page.getByLabel('Website URL (optional)').fill(`${site.url}/login.html`);
    await page.getByTestId('start-video').click();
    await page.locator('[data-testid="browser-status"][data-status="ready"]').waitFor({ timeout: 60_000 });
    await say(page, 'fill the email with demo@acme.test');
    await say(page, 'fill the password with Password1');
    await say(page, 'click Sign in');

    // The dialog: the project, the steps with {{PASSWORD}} instead of what was typed.
    const open = page.getByTestId('use-as-login');
    await expect.poll(() => open.isEnabled(), { timeout: 20_000 }).toBe(true);
    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Use as login' });
    await dialog.getByLabel('Project').selectOption({ label: PROJECT });
    const steps = dialog.getByLabel('Sign-in steps');
    await expect.poll(() => steps.inputValue()).toContain('Navigate to /login.html');
    const draft = await steps.inputValue();
    expect(draft).toContain('Fill "Password" with "{{PASSWORD}}"');
    expect(draft).toContain('demo@acme.test');
    expect(draft).not.toContain('Password1');
    await dialog
      .getByText('The password you typed is not kept: the login uses {{PASSWORD}}, a secret of the project')
      .waitFor();
    await dialog.getByTestId('password-secret-missing').waitFor();
    expect(
      await dialog.getByRole('link', { name: 'Variables and secrets' }).first().getAttribute('href'),
    ).toBe(`/projects/${project.id}`);
    const save = dialog.getByRole('button', { name: 'Save login' });
    await expect.poll(() => save.isEnabled()).toBe(true);
    await waitForSettledAnimations(page);
    await screenshot(page, 'conversation-login-1440');
    expect(await axeFailures(page)).toEqual([]);

    // A line that is not a step is named and not saved.
    await steps.fill(`${draft}\nthen wait a bit`);
    const lineCount = draft.split('\n').length + 1;
    await save.click();
    await dialog.getByText(`line ${lineCount} ("then wait a bit")`).waitFor();
    await steps.fill(draft);

    // At 390 px: the same dialog, nothing overflows.
    await page.setViewportSize({ width: 390, height: 844 });
    await save.scrollIntoViewIfNeeded();
    await screenshot(page, 'conversation-login-390');
    expect(await axeFailures(page)).toEqual([]);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);

    // Saved: the toast, the project's login is the reviewed steps, the password is nowhere.
    await save.click();
    await toast(page, `Login saved to ${PROJECT}`).waitFor();
    await dialog.getByRole('link', { name: `Open ${PROJECT}` }).waitFor();
    const stored = (await api(page, 'GET', `/${project.id}`)) as { login: { mode: string; steps: string[] } };
    expect(stored.login).toEqual({ mode: 'steps', steps: draft.split('\n') });
    expect(JSON.stringify(stored)).not.toContain('Password1');
    // Nor is it in the conversation as stored: {{PASSWORD}} in its step, masked in its words.
    const headers = { Authorization: `Bearer ${await pageToken(page)}` };
    const [latest] = (await (await fetch(`${server.url}/api/conversations`, { headers })).json()) as {
      id: string;
    }[];
    const conversation = JSON.stringify(
      await (await fetch(`${server.url}/api/conversations/${latest.id}`, { headers })).json(),
    );
    expect(conversation).not.toContain('Password1');
    expect(conversation).toContain('fill the password with ••••••••');
    expect(conversation).toContain('Fill \\"Password\\" with \\"{{PASSWORD}}\\"');
    await screenshot(page, 'conversation-login-390-saved');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('chat-panel').scrollIntoViewIfNeeded();
    await screenshot(page, 'conversation-login-390-chat');
    await page.getByRole('button', { name: 'Stop session' }).click();
  }, 180_000);
});
