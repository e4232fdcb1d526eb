import { mkdir } from 'node:fs/promises';
import { isRunOver, type VisualBaselineList, type VisualRunChecks } from '@argus/protocol';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { startVisualSite, type VisualSite } from '../fixtures/visual/serve';
import { PageOpener, pageToken, registerAccount, signIn, toast } from './support/app';
import { launchBrowser } from './support/browser';
import { SHOTS, shootBoth } from './support/screens';

/**
 * A project's Visual baselines screen (issue 40, docs/VISUAL-CHECKS.md#the-baselines-screen), through
 * the screens: a saved suite of two cases, each ending `Verify the page looks as approved`, runs on the
 * visual fixture site and its new checks are approved (through the API). The project page links the
 * screen; it shows the current baseline of each check. A check's threshold is changed and a mask added
 * by the keyboard form (and one drawn by a drag, then removed), and an element mask by its role (img);
 * saved, a reload shows them and the API answers them. The header's
 * colour changed, a run on a branch is approved there (through the API); the screen shows the branch's
 * baselines and promotes them to main, confirmed; the default branch's history has the promoted one,
 * and the earlier one is restored, confirmed. Axe-clean, no sideways scrolling at 390 px; screenshots
 * at 1440 and 390 px in /tmp/shots/.
 */

const POLL = { timeout: 20_000 };
const BRANCH = 'feature/grey-header';
const CASES = [
  { test_name: 'Landing page', steps: ['Navigate to /', 'Verify the page looks as approved'] },
  { test_name: 'Pricing page', steps: ['Navigate to /pricing', 'Verify the page looks as approved'] },
];

let server: RunningServer;
let site: VisualSite;
let browser: Browser;
const pages = new PageOpener(() => browser);

beforeAll(async () => {
  [server, site, browser] = await Promise.all([
    spawnServer({ ALLOWED_TARGETS: '127.0.0.1' }),
    startVisualSite({ banner: 0 }),
    launchBrowser(),
  ]);
  await mkdir(SHOTS, { recursive: true });
});

afterAll(async () => {
  await pages.closeAll();
  await browser?.close();
  await server?.stop();
  await site?.close();
});

async function api<T = unknown>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** Runs the saved suite (on `branch` when named) and waits for its end; its id. */
async function runSuite(branch?: string): Promise<string> {
  const started = await api<{ test_run_id: string }>(
    token,
    'POST',
    `/api/projects/${projectId}/suites/${suiteId}/runs`,
    branch ? { branch } : {},
  );
  for (let i = 0; i < 1200; i += 1) {
    const run = await api<{ status: string }>(token, 'GET', `/api/runs/${started.test_run_id}`);
    if (isRunOver(run.status)) return started.test_run_id;
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error('The suite run did not end');
}

async function baselinesOf(branch = ''): Promise<VisualBaselineList['baselines']> {
  const list = await api<VisualBaselineList>(
    token,
    'GET',
    `/api/projects/${projectId}/visual-baselines?branch=${encodeURIComponent(branch)}`,
  );
  return list.baselines;
}

/** Waits until every <img> of the screen (and of an open dialog) has loaded: the pictures open by signed link. */
async function imagesLoaded(page: Page): Promise<void> {
  const pending = () =>
    page
      .locator('[data-testid="visual-baselines-page"] img, [role="dialog"] img')
      .evaluateAll((imgs) =>
        (imgs as unknown as { complete: boolean; naturalWidth: number; src: string }[])
          .filter((img) => !(img.complete && img.naturalWidth > 0))
          .map((img) => img.src),
      );
  await expect.poll(pending, POLL).toEqual([]);
}

function cardOf(page: Page, caseName: string): Locator {
  return page
    .getByTestId('visual-baseline')
    .filter({ has: page.getByRole('heading', { name: new RegExp(`^${caseName} ·`) }) });
}

let token = '';
let username = '';
let projectId = '';
let suiteId = '';

describe('a project’s visual baselines screen', () => {
  it('records the checks of a suite and approves them (through the API)', async () => {
    username = await registerAccount(server.url, 'baselines');
    const page = await pages.open();
    await signIn(page, server.url, username);
    token = await pageToken(page);
    projectId = (
      await api<{ id: string }>(token, 'POST', '/api/projects', {
        name: 'Bottle shop',
        kind: 'web',
        environments: [{ name: 'staging', base_url: `${site.url}/` }],
      })
    ).id;
    suiteId = (
      await api<{ id: string }>(token, 'POST', `/api/projects/${projectId}/suites`, {
        name: 'Looks',
        test_cases: CASES,
      })
    ).id;
    const runId = await runSuite();
    const approved = await api<VisualRunChecks>(
      token,
      'POST',
      `/api/runs/${runId}/visual-checks/approve-all`,
    );
    expect(approved.to_review).toBe(0);
    expect((await baselinesOf()).map((b) => b.case_name).sort()).toEqual(['Landing page', 'Pricing page']);
  }, 180_000);

  it('opens from the project page and lists the current baselines; a check’s threshold and masks are saved and shown after a reload', async () => {
    const page = await pages.open();
    await signIn(page, server.url, username);
    const a11y: string[] = [];
    await page.goto(`${server.url}/projects/${projectId}`);
    await page
      .getByRole('navigation', { name: 'Project pages' })
      .getByRole('link', { name: 'Visual baselines' })
      .click();
    await page.waitForURL(`**/projects/${projectId}/baselines`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), POLL)
      .toBe('Visual baselines');
    await expect.poll(() => page.getByTestId('visual-baseline').count(), POLL).toBe(2);
    const environment = page.getByRole('combobox', { name: 'Environment' });
    expect(await environment.inputValue()).not.toBe('');
    expect(await environment.getByRole('option', { selected: true }).textContent()).toBe('staging (default)');
    expect(await page.getByRole('textbox', { name: 'Branch' }).getAttribute('placeholder')).toBe(
      'Default branch',
    );
    const landing = cardOf(page, 'Landing page');
    expect(await landing.textContent()).toContain('Whole page');
    expect(await landing.getByTestId('visual-baseline-approved').textContent()).toMatch(
      new RegExp(`^Approved by ${username} · .+ · from run [0-9a-f-]{8}$`),
    );
    expect(await landing.getByTestId('visual-baseline-settings').textContent()).toMatch(
      /^Threshold 0% · No masks/,
    );
    await shootBoth(page, 'visual-baselines', a11y, imagesLoaded);

    // The settings: threshold in %, a mask typed in (the keyboard's way).
    await landing.getByRole('button', { name: 'Settings of Landing page, Whole page' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings of Landing page, Whole page' });
    await dialog.getByLabel('Threshold (%)').fill('0.5');
    // A wrong number is named under its field.
    await dialog.getByLabel('Width').fill('0');
    await dialog.getByRole('button', { name: 'Add mask' }).click();
    expect(await dialog.getByText('Enter the left edge (x) in whole pixels').count()).toBe(1);
    await dialog.getByLabel('Left (x)').fill('10');
    await dialog.getByLabel('Top (y)').fill('20');
    await dialog.getByLabel('Width').fill('200');
    await dialog.getByLabel('Height').fill('60');
    await dialog.getByLabel('Height').press('Enter');
    const masks = dialog.getByTestId('visual-mask-list').getByRole('listitem');
    await expect.poll(() => masks.count(), POLL).toBe(1);
    expect(await masks.first().textContent()).toContain('Mask 1: 200 × 60 at 10, 20');
    // A drag on the picture draws a second one; removed again.
    const surface = dialog.getByTestId('visual-mask-surface');
    await surface.scrollIntoViewIfNeeded();
    const box = await surface.boundingBox();
    if (!box) throw new Error('The picture has no box');
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.55, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.6, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => masks.count(), POLL).toBe(2);
    expect(await dialog.getByTestId('visual-user-mask').count()).toBe(2);
    // An element mask by its role: Add waits for a text or a role.
    const elementMasks = dialog.getByTestId('visual-element-masks');
    const addElement = elementMasks.getByRole('button', { name: 'Add element mask' });
    expect(await elementMasks.textContent()).toContain('No elements masked by their text or role.');
    expect(await addElement.isDisabled()).toBe(true);
    await elementMasks.getByRole('combobox', { name: 'Role' }).selectOption('img');
    expect(await addElement.isDisabled()).toBe(false);
    await addElement.click();
    const elementItems = dialog.getByTestId('visual-element-mask-list').getByRole('listitem');
    await expect.poll(() => elementItems.count(), POLL).toBe(1);
    expect(await elementItems.first().textContent()).toContain('role img');
    expect(await elementMasks.getByRole('combobox', { name: 'Role' }).inputValue()).toBe('');
    // The same one again is refused, with the reason under the Text field.
    await elementMasks.getByRole('combobox', { name: 'Role' }).selectOption('img');
    await addElement.click();
    expect(await elementMasks.getByText('Already masked: role img').count()).toBe(1);
    expect(await elementItems.count()).toBe(1);
    await elementMasks.getByRole('combobox', { name: 'Role' }).selectOption('');
    expect(await addElement.isDisabled()).toBe(true);
    await elementMasks.getByRole('heading', { name: /^Masked elements/ }).scrollIntoViewIfNeeded();
    await shootBoth(page, 'visual-baselines-settings', a11y, imagesLoaded);
    await dialog.getByRole('button', { name: /^Remove mask 2,/ }).click();
    expect(await masks.count()).toBe(1);
    await dialog.getByRole('button', { name: 'Save settings' }).click();
    await toast(page, 'Saved the settings of Landing page, Whole page').waitFor();
    await expect.poll(() => dialog.count(), POLL).toBe(0);
    await expect
      .poll(() => landing.getByTestId('visual-baseline-settings').textContent(), POLL)
      .toMatch(/^Threshold 0\.5% · 2 masks · 1 element/);

    await page.reload();
    await cardOf(page, 'Landing page').waitFor();
    expect(await cardOf(page, 'Landing page').getByTestId('visual-baseline-settings').textContent()).toMatch(
      /^Threshold 0\.5% · 2 masks · 1 element/,
    );
    await cardOf(page, 'Landing page')
      .getByRole('button', { name: 'Settings of Landing page, Whole page' })
      .click();
    expect(await dialog.getByLabel('Threshold (%)').inputValue()).toBe('0.5');
    expect(await dialog.getByTestId('visual-mask-list').textContent()).toContain(
      'Mask 1: 200 × 60 at 10, 20',
    );
    const savedElements = dialog.getByTestId('visual-element-mask-list').getByRole('listitem');
    expect(await savedElements.count()).toBe(1);
    expect(await savedElements.first().textContent()).toContain('role img');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const landingBaseline = (await baselinesOf()).find((b) => b.case_name === 'Landing page');
    expect(landingBaseline?.threshold).toBe(0.005);
    expect(landingBaseline?.user_masks).toEqual([{ x: 10, y: 20, width: 200, height: 60 }]);
    expect(landingBaseline?.element_masks).toEqual([{ role: 'img' }]);
    expect(a11y).toEqual([]);
  }, 180_000);

  it('shows a branch’s baselines approved there and promotes them to main, confirmed; the earlier default one is restored', async () => {
    site.setChange('colour');
    const runId = await runSuite(BRANCH);
    const checks = await api<VisualRunChecks>(token, 'GET', `/api/runs/${runId}/visual-checks`);
    expect(checks.to_review).toBeGreaterThan(0);
    await api(token, 'POST', `/api/runs/${runId}/visual-checks/approve-all`);
    const onBranch = await baselinesOf(BRANCH);
    expect(onBranch.length).toBe(checks.to_review);

    const page = await pages.open();
    await signIn(page, server.url, username);
    const a11y: string[] = [];
    await page.goto(`${server.url}/projects/${projectId}/baselines`);
    await expect.poll(() => page.getByTestId('visual-baseline').count(), POLL).toBe(2);
    expect(await page.getByRole('button', { name: 'Promote to main' }).count()).toBe(0);
    // A branch name is checked as one.
    await page.getByRole('textbox', { name: 'Branch' }).fill('not a branch');
    await page.getByRole('button', { name: 'Show baselines' }).click();
    expect(await page.getByText('A branch name holds letters, digits and . _ / - only').count()).toBe(1);
    await page.getByRole('textbox', { name: 'Branch' }).fill(BRANCH);
    await page.getByRole('button', { name: 'Show baselines' }).click();
    await page.waitForURL(/branch=feature%2Fgrey-header/);
    await expect
      .poll(() => page.getByTestId('visual-baselines').getByRole('heading', { level: 2 }).textContent(), POLL)
      .toBe(`Current baselines · branch ${BRANCH}`);
    await expect.poll(() => page.getByTestId('visual-baseline').count(), POLL).toBe(onBranch.length);
    await shootBoth(page, 'visual-baselines-branch', a11y, imagesLoaded);

    await page.getByRole('button', { name: 'Promote to main' }).click();
    const confirm = page.getByRole('dialog', { name: `Promote ${BRANCH} to main?` });
    const n = onBranch.length;
    expect(await confirm.textContent()).toContain(
      `Copies the ${n} ${n === 1 ? 'baseline' : 'baselines'} of branch ${BRANCH} to the default branch`,
    );
    await confirm.getByRole('button', { name: 'Promote to main' }).click();
    await toast(
      page,
      `Promoted ${n} ${n === 1 ? 'baseline' : 'baselines'} of ${BRANCH} to the default branch`,
    ).waitFor();
    const promotedCase = onBranch[0].case_name;
    const current = (await baselinesOf()).find((b) => b.case_name === promotedCase);
    expect(current?.copied_from).toBe(onBranch[0].id);

    // The default branch: the promoted baseline is the current one; its history has the earlier one.
    await page.getByRole('textbox', { name: 'Branch' }).fill('');
    await page.getByRole('button', { name: 'Show baselines' }).click();
    await expect
      .poll(() => page.getByTestId('visual-baselines').getByRole('heading', { level: 2 }).textContent(), POLL)
      .toBe('Current baselines · Default branch');
    const card = cardOf(page, promotedCase);
    await card.getByRole('button', { name: `History of ${promotedCase}, Whole page` }).click();
    const entries = card.getByTestId('visual-baseline-entry');
    await expect.poll(() => entries.count(), POLL).toBe(2);
    expect(await entries.nth(0).textContent()).toContain('Current baseline');
    await shootBoth(page, 'visual-baselines-history', a11y, imagesLoaded);
    await entries
      .nth(1)
      .getByRole('button', { name: /^Restore the baseline Approved by/ })
      .click();
    await page
      .getByRole('dialog', { name: 'Restore this baseline?' })
      .getByRole('button', { name: 'Restore baseline' })
      .click();
    await toast(page, `Restored the baseline approved by ${username}`).waitFor();
    await expect.poll(() => card.getByTestId('visual-baseline-entry').count(), POLL).toBe(3);
    expect(a11y).toEqual([]);
  }, 240_000);
});
