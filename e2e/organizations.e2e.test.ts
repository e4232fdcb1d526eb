import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { PASSWORD, PageOpener, pageToken, registerAccount, signIn, toast } from './support/app';
import { describeViolations, isBlocking, runAxe } from './support/axe';
import { launchBrowser, screenshot } from './support/browser';

/**
 * Organizations in the browser (docs/ORGANIZATIONS.md), through the real server: an owner makes an
 * organization from the sidebar and invites by link; the invited accept on the invitation page (one
 * signing in, one registering on the way); a viewer sees no Run, Edit or Delete control on a project
 * of the organization, a runner sees Generate but no Edit or Delete; an admin changes a role and
 * removes a member, whose screens fall back to their personal organization. The Organization screen
 * and the invitation page are axe-clean at 1440 and 390 px.
 */

const SHOTS = '/tmp/shots';
const ORG = 'Acme QA';

let server: RunningServer;
let browser: Browser;
const pages = new PageOpener(() => browser);
const users = { owner: '', admin: '', runner: '', viewer: '' };
/** The members' signed-in pages, kept across the tests of this file (one walk). */
const signedIn: Partial<Record<keyof typeof users, Page>> = {};
let orgId = '';
let projectId = '';

beforeAll(async () => {
  [server, browser] = await Promise.all([spawnServer(), launchBrowser()]);
  await mkdir(SHOTS, { recursive: true });
  users.owner = await registerAccount(server.url, 'owner');
  users.admin = await registerAccount(server.url, 'admin');
  users.runner = await registerAccount(server.url, 'runner');
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

/** Waits for the page to reach `path` (or a path `path` matches); a timeout names where it is instead. */
async function waitForPath(page: Page, path: string | RegExp): Promise<void> {
  const matches = (url: URL) => (typeof path === 'string' ? url.pathname === path : path.test(url.pathname));
  try {
    await page.waitForURL(matches);
  } catch (error) {
    await page.screenshot({ path: `${SHOTS}/stuck-${Date.now()}.png` });
    throw new Error(`Waiting for ${path}, the page stayed at ${page.url()}`, { cause: error });
  }
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  await screenshot(page, name);
}

/** Invites `email` with `role` on the Organization screen and returns the link shown to copy. */
async function invite(page: Page, email: string, role: string): Promise<string> {
  const form = page.getByRole('form', { name: 'Invite a member' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Role').selectOption(role);
  await form.getByRole('button', { name: 'Create invitation link' }).click();
  const link = (await page.getByTestId('invitation-link-value').textContent()) ?? '';
  expect(link).toMatch(/\/invitations\/[^/]+$/);
  await page.getByTestId('invitation-link').getByRole('button', { name: 'Done' }).click();
  return link;
}

/** The member's signed-out page opens the link, signs in through it, and joins. */
async function acceptBySigningIn(link: string, username: string): Promise<Page> {
  const page = await pages.open();
  await page.goto(link);
  await page.getByRole('heading', { level: 1, name: `Join ${ORG}` }).waitFor();
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('Email or username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Back on the link, now signed in: the join button.
  await waitForPath(page, /^\/invitations\//);
  await page.getByRole('button', { name: `Join ${ORG}` }).click();
  await waitForPath(page, '/organization');
  return page;
}

describe('organizations in the browser', () => {
  it('an owner makes an organization and invites by link; members join through the invitation page', async () => {
    const a11y: string[] = [];
    const owner = await pages.open({ clipboardOrigin: server.url });
    signedIn.owner = owner;
    await signIn(owner, server.url, users.owner);

    // The sidebar's switcher: the personal organization first, then 'New organization…'.
    const switcher = owner.getByTestId('org-select');
    await expect
      // The list loads from the server: a busy machine takes more than a poll's default second.
      .poll(async () => (await switcher.locator('option').allTextContents()).join('|'), { timeout: 15_000 })
      .toMatch(/\(personal\) · Owner\|New organization…$/);
    await switcher.selectOption({ label: 'New organization…' });
    const dialog = owner.getByRole('dialog', { name: 'New organization' });
    await dialog.getByLabel('Organization name').fill(ORG);
    await dialog.getByRole('button', { name: 'Create organization' }).click();
    await waitForPath(owner, '/organization');
    await owner.getByRole('main').getByText(`${ORG}`, { exact: true }).first().waitFor();
    // The switcher now names the new organization, by its id.
    orgId = await switcher.inputValue();
    expect(await switcher.locator(`option[value="${orgId}"]`).textContent()).toBe(`${ORG} · Owner`);

    // Invitations: a link each, copied with the Copy button for the first.
    const form = owner.getByRole('form', { name: 'Invite a member' });
    await form.getByLabel('Email').fill(`${users.admin}@example.com`);
    await form.getByLabel('Role').selectOption('admin');
    await form.getByRole('button', { name: 'Create invitation link' }).click();
    const adminLink = (await owner.getByTestId('invitation-link-value').textContent()) ?? '';
    await owner.getByRole('button', { name: 'Copy invitation link' }).click();
    expect(
      await owner.evaluate(() =>
        (
          globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
        ).navigator.clipboard.readText(),
      ),
    ).toBe(adminLink);
    await owner.getByTestId('invitation-link').getByRole('button', { name: 'Done' }).click();
    const runnerLink = await invite(owner, `${users.runner}@example.com`, 'runner');
    const viewerLink = await invite(owner, 'newcomer@example.com', 'viewer');
    const revokedLink = await invite(owner, 'never@example.com', 'editor');
    await owner.getByRole('button', { name: 'Revoke the invitation for never@example.com' }).click();
    await owner.locator('[data-testid="invitation"][data-state="revoked"]').waitFor();
    expect(await owner.locator('[data-testid="invitation"][data-state="open"]').count()).toBe(3);
    a11y.push(...(await axeFailures(owner, 'organization 1440')));
    await shoot(owner, 'organization-1440');

    // The invitation page, signed out: what it offers, at 1440 and at 390.
    const visitor = await pages.open();
    await visitor.goto(viewerLink);
    await visitor.getByRole('heading', { level: 1, name: `Join ${ORG}` }).waitFor();
    expect(await visitor.getByTestId('invitation-page').textContent()).toContain('newcomer@example.com');
    a11y.push(...(await axeFailures(visitor, 'invitation 1440')));
    await shoot(visitor, 'invitation-1440');
    const phone = await pages.open({ width: 390, height: 844 });
    await phone.goto(viewerLink);
    await phone.getByRole('heading', { level: 1, name: `Join ${ORG}` }).waitFor();
    expect(await horizontalOverflow(phone)).toBe(0);
    a11y.push(...(await axeFailures(phone, 'invitation 390')));
    await shoot(phone, 'invitation-390');

    // The admin and the runner sign in through their links and join.
    signedIn.admin = await acceptBySigningIn(adminLink, users.admin);
    signedIn.runner = await acceptBySigningIn(runnerLink, users.runner);
    expect(await signedIn.runner.getByTestId('org-select').inputValue()).toBe(orgId);

    // The viewer has no account yet: registering on the way, then back to the link.
    await phone.getByRole('link', { name: 'Create an account' }).click();
    users.viewer = `viewer_${Date.now().toString(36)}`;
    await phone.getByLabel('Username').fill(users.viewer);
    await phone.getByLabel('Email').fill(`${users.viewer}@example.com`);
    await phone.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await phone.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await phone.getByRole('button', { name: 'Create account' }).click();
    await waitForPath(phone, '/login');
    await phone.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await phone.getByRole('button', { name: 'Sign in' }).click();
    await waitForPath(phone, /^\/invitations\//);
    await phone.getByRole('button', { name: `Join ${ORG}` }).click();
    await waitForPath(phone, '/organization');
    signedIn.viewer = phone;

    // A used link and a revoked one say why, in the server's words.
    await visitor.goto(adminLink);
    expect(await visitor.getByTestId('invitation-closed').textContent()).toContain('already been used');
    await visitor.goto(revokedLink);
    expect(await visitor.getByTestId('invitation-closed').textContent()).toContain('was revoked');
    await visitor.goto(`${server.url}/invitations/not-a-real-token`);
    expect(await visitor.getByTestId('invitation-error').textContent()).toContain('not valid');

    // Everyone is listed with their role.
    await owner.reload();
    await owner.locator(`[data-testid="member"][data-username="${users.viewer}"]`).waitFor();
    expect(await owner.getByTestId('member').count()).toBe(4);
    a11y.push(...(await axeFailures(owner, 'organization members')));
    expect(a11y).toEqual([]);
  }, 240_000);

  it('a viewer sees no Run, Edit or Delete control; a runner may generate but not edit', async () => {
    const owner = signedIn.owner as Page;
    const token = await pageToken(owner);
    const res = await fetch(`${server.url}/api/projects`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        'X-Argus-Organization': orgId,
      },
      body: JSON.stringify({
        name: 'Shop',
        environments: [{ name: 'staging', base_url: 'https://staging.example.com' }],
      }),
    });
    expect(res.status).toBe(201);
    projectId = ((await res.json()) as { id: string }).id;

    const controls =
      /^(Edit|Delete|Run|Add |Save|Remove|Replace|Pause|Resume|Send test|Make default|New secret)/;
    // The owner sees the controls (the same page, so the check below can fail).
    await owner.goto(`${server.url}/projects/${projectId}`);
    await owner.getByTestId('project-screen').waitFor();
    expect(await owner.getByRole('main').getByRole('button', { name: controls }).count()).toBeGreaterThan(3);

    const viewer = signedIn.viewer as Page;
    await viewer.goto(`${server.url}/projects/${projectId}`);
    await viewer.getByTestId('project-screen').waitFor();
    await viewer.getByTestId('environment').first().waitFor();
    await viewer.getByText('No saved suites yet').waitFor();
    expect(await viewer.getByRole('main').getByRole('button', { name: controls }).allTextContents()).toEqual(
      [],
    );
    expect(
      await viewer
        .getByRole('main')
        .getByRole('link', { name: /New|Create/ })
        .count(),
    ).toBe(0);
    await viewer.goto(`${server.url}/automation`);
    await viewer.getByTestId('generate-needs-role').waitFor();
    expect(await viewer.getByRole('button', { name: 'Generate Test Cases' }).count()).toBe(0);

    const runner = signedIn.runner as Page;
    await runner.goto(`${server.url}/projects/${projectId}`);
    await runner.getByTestId('environment').first().waitFor();
    expect(
      await runner
        .getByRole('main')
        .getByRole('button', { name: /^(Edit|Delete)/ })
        .count(),
    ).toBe(0);
    await runner.goto(`${server.url}/automation`);
    await runner.getByRole('button', { name: 'Generate Test Cases' }).waitFor();
  }, 120_000);

  it('an admin changes a role and removes a member, who falls back to their personal organization', async () => {
    const admin = signedIn.admin as Page;
    await admin.goto(`${server.url}/organization`);
    const runnerRow = admin.locator(`[data-testid="member"][data-username="${users.runner}"]`);
    await runnerRow.getByLabel(/^Role of/).selectOption('editor');
    await toast(admin, 'is now editor').waitFor();
    // Admins do not make owners: the owner's row has no select, and no role offers owner.
    const ownerRow = admin.locator(`[data-testid="member"][data-username="${users.owner}"]`);
    expect(await ownerRow.getByRole('combobox').count()).toBe(0);
    expect(await runnerRow.getByRole('option', { name: 'Owner' }).count()).toBe(0);

    const viewerRow = admin.locator(`[data-testid="member"][data-username="${users.viewer}"]`);
    await viewerRow.getByRole('button', { name: /^Remove/ }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
    await viewerRow.waitFor({ state: 'detached' });
    expect(await admin.getByTestId('member').count()).toBe(3);

    // The runner, now an editor, sees Edit on the project.
    const runner = signedIn.runner as Page;
    await runner.goto(`${server.url}/projects/${projectId}`);
    await runner.getByTestId('project-screen').getByRole('button', { name: 'Edit', exact: true }).waitFor();

    // The removed viewer: the organization is gone from their screens, said once.
    const viewer = signedIn.viewer as Page;
    await viewer.goto(`${server.url}/history`);
    await toast(viewer, 'no longer a member').waitFor();
    await expect
      .poll(() => viewer.getByTestId('org-select').inputValue(), { timeout: 15_000 })
      .not.toBe(orgId);
    expect(await viewer.getByTestId('org-select').locator('option').allTextContents()).not.toContain(
      expect.stringContaining(ORG),
    );

    // The Organization screen of the owner at 390 px: no sideways scroll, axe clean.
    const phone = await pages.open({ width: 390, height: 844 });
    await signIn(phone, server.url, users.owner);
    // A new browser: the organization is chosen in the sidebar, opened from the top bar's toggle.
    await phone.getByTestId('sidebar-toggle').click();
    await phone.getByTestId('org-select').selectOption(orgId);
    await phone.goto(`${server.url}/organization`);
    await phone.getByTestId('member').nth(2).waitFor();
    expect(await horizontalOverflow(phone)).toBe(0);
    const a11y = await axeFailures(phone, 'organization 390');
    await shoot(phone, 'organization-390');
    expect(a11y).toEqual([]);
  }, 120_000);
});
