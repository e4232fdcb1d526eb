import { mkdir } from 'node:fs/promises';
import { type ScriptedModelServer, startScriptedModelServer } from '@argus/ai/testing';
import { type CaseRepairList, isRunOver } from '@argus/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_EXPLORATION } from '../apps/server/src/testing/small-exploration';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { type FixtureApp, serveFixtureApp } from '../fixtures/apps/serve';
import { PageOpener, pageToken, registerAccount, signIn } from './support/app';
import { launchBrowser } from './support/browser';
import { axeFailures, SHOTS, shootBoth } from './support/screens';

/**
 * When the app changes (issue 39, docs/REPAIRS.md), through the screens: a suite of the to-do app saved
 * and run on its original design, then run on its redesign (the field renamed): the run page's Repairs
 * tab shows each proved repair as a step diff with its before and after screenshots; one is rejected,
 * one approved, then the rest with 'Approve all' — each approval a new suite version. A run of the
 * original with a planted bug shows 'Looks like a bug — no repair'. The suite's own review, the
 * suites list's 'Repairs (N)', and 'Regenerate': cancelled, then run to a comparison reviewed and
 * accepted into a new version. Axe-clean, no sideways scrolling at 390 px; screenshots at 1440 and
 * 390 px in /tmp/shots/.
 */

/** How long a screen may take to show what the server answered (a decision saves a suite version). */
const POLL = { timeout: 20_000 };
const CASES = ['Buy milk', 'Walk the dog', 'Read a book'].map((title) => ({
  test_name: `Adds "${title}"`,
  steps: [
    'Navigate to /',
    `Fill "New todo" with "${title}"`,
    'Press Enter',
    `Verify text "${title}" is visible`,
  ],
}));

let server: RunningServer;
let app: FixtureApp;
let browser: Browser;
/** The LLM engine of one user: every repair it is asked for checks less than the case did. */
let model: ScriptedModelServer;
const pages = new PageOpener(() => browser);

beforeAll(async () => {
  [server, app, browser, model] = await Promise.all([
    // A step the redesign or a planted bug breaks, and each candidate a repair tries and loses, waits
    // out the step timeout: 2 s, where the to-do app answers at once. The regeneration's subject is its
    // review screens, not what it finds: the small generation budget (docs/TESTING.md).
    spawnServer({ ALLOWED_TARGETS: '127.0.0.1', STEP_TIMEOUT_MS: '2000', ...SMALL_EXPLORATION }),
    serveFixtureApp('todo'),
    launchBrowser(),
    startScriptedModelServer(() => ({
      json: { lines: ['Verify text "todos" is visible'], reason: 'The heading reads "todos"' },
    })),
  ]);
  await mkdir(SHOTS, { recursive: true });
});

afterAll(async () => {
  await pages.closeAll();
  await browser?.close();
  await server?.stop();
  await app?.close();
  await model?.close();
});

async function api<T = unknown>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** Runs a saved suite in the real browser (the run API) and waits for its end (and its repairs); its id. */
async function runSuite(token: string, projectId: string, suiteId: string): Promise<string> {
  const started = await api<{ test_run_id: string }>(
    token,
    'POST',
    `/api/projects/${projectId}/suites/${suiteId}/runs`,
    {},
  );
  for (let i = 0; i < 1200; i += 1) {
    const run = await api<{ status: string }>(token, 'GET', `/api/runs/${started.test_run_id}`);
    if (isRunOver(run.status)) return started.test_run_id;
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error('The suite run did not end');
}

/** Waits until every <img> on the page has loaded (the screenshots open by signed link). */
async function imagesLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const doc = (
      globalThis as unknown as {
        document: { images: ArrayLike<{ complete: boolean; naturalWidth: number }> };
      }
    ).document;
    return Array.from(doc.images).every((img) => img.complete && img.naturalWidth > 0);
  });
}

let token = '';
let username = '';
let projectId = '';
let suiteId = '';
let otherSuiteId = '';
let redesignRun = '';

describe('repairs reviewed as a diff', () => {
  it('runs a to-do suite on the original, then on the redesign, where repairs are proposed', async () => {
    username = await registerAccount(server.url, 'repair');
    const page = await pages.open();
    await signIn(page, server.url, username);
    token = await pageToken(page);
    const project = await api<{ id: string }>(token, 'POST', '/api/projects', {
      name: 'Todos',
      kind: 'web',
      environments: [{ name: 'staging', base_url: `${app.url}/` }],
    });
    projectId = project.id;
    const suite = await api<{ id: string }>(token, 'POST', `/api/projects/${projectId}/suites`, {
      name: 'Adding todos',
      test_cases: CASES,
    });
    suiteId = suite.id;
    // A second suite of the same cases, reviewed on its own page.
    const other = await api<{ id: string }>(token, 'POST', `/api/projects/${projectId}/suites`, {
      name: 'Adding todos again',
      test_cases: CASES,
    });
    otherSuiteId = other.id;
    for (const id of [suiteId, otherSuiteId]) {
      const passing = await runSuite(token, projectId, id);
      const run = await api<{ status: string; results: { status: string }[] }>(
        token,
        'GET',
        `/api/runs/${passing}`,
      );
      expect(run.results.map((r) => r.status)).toEqual(['passed', 'passed', 'passed']);
    }
    app.setRedesign(true);
    redesignRun = await runSuite(token, projectId, suiteId);
    await runSuite(token, projectId, otherSuiteId);
    const repairs = await api<CaseRepairList>(token, 'GET', `/api/runs/${redesignRun}/repairs`);
    expect(repairs.repairs.map((r) => [r.case_name, r.verdict, r.status])).toEqual(
      CASES.map((c) => [c.test_name, 'repair', 'proposed']),
    );
  }, 300_000);

  it('shows the proposals on the run page’s Repairs tab; one rejected, one approved, the rest approved all at once', async () => {
    expect(redesignRun).not.toBe('');
    const page = await pages.open();
    await signIn(page, server.url, username);
    const a11y: string[] = [];
    await page.goto(`${server.url}/history/runs/${redesignRun}`);
    const tab = page.getByTestId('run-tabs').getByRole('link', { name: 'Repairs (3)' });
    await tab.click();
    await page.waitForURL((url) => url.search === '?tab=repairs');
    const cards = page.getByTestId('repair-card');
    await expect.poll(() => cards.count(), POLL).toBe(3);
    // A card by its heading: another card's evidence may name the case ('renamed the same way in case …').
    const cardOf = (name: string) => cards.filter({ has: page.getByRole('heading', { name, exact: true }) });
    const first = cardOf(CASES[0].test_name);

    // The step diff: the field's old line removed (−) and its new line added (+), the rest kept.
    const diff = first.getByTestId('repair-diff');
    const lines = await diff
      .locator('li')
      .evaluateAll((els) =>
        els.map((el) => [
          el.getAttribute('data-op'),
          (el as unknown as { textContent: string }).textContent.replace(/\s+/g, ' ').trim(),
        ]),
      );
    expect(lines.filter(([op]) => op === 'removed').map(([, text]) => text)).toEqual([
      expect.stringMatching(/−\s*Removed: Fill "New todo" with "Buy milk"$/),
    ]);
    expect(lines.filter(([op]) => op === 'added')).toHaveLength(1);
    expect(lines.find(([op]) => op === 'added')?.[1]).toMatch(/\+\s*Added: Fill .* with "Buy milk"$/);
    expect(await first.getByTestId('repair-proof').textContent()).toMatch(
      /^Proved: the repaired case passed in \d+(\.\d)? s$/,
    );
    expect(await first.getByTestId('repair-evidence').textContent()).toMatch(/"New todo"/);
    // Before (the last passing run) and now (the proof), each opened by its signed link.
    await expect.poll(() => first.getByTestId('repair-screenshots').locator('img').count(), POLL).toBe(2);
    await imagesLoaded(page);
    await shootBoth(page, 'run-repairs', a11y);

    // Reject the second, with a reason: it says so and leaves the choice.
    const second = cardOf(CASES[1].test_name);
    await second.getByRole('button', { name: `Reject the repair of ${CASES[1].test_name}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Why (optional)').fill('The field should keep its name');
    await dialog.getByRole('button', { name: 'Reject repair' }).click();
    await expect.poll(() => second.getAttribute('data-status'), POLL).toBe('rejected');
    expect(await second.getByTestId('repair-decision').textContent()).toMatch(/^Rejected/);

    // Approve the first alone, by keyboard: one new version.
    const approve = first.getByRole('button', { name: `Approve the repair of ${CASES[0].test_name}` });
    // Enabled again once the rejection's lists are read back.
    await expect.poll(() => approve.isEnabled(), POLL).toBe(true);
    await approve.focus();
    await page.keyboard.press('Enter');
    const notice = page.getByTestId('repairs-notice');
    await expect
      .poll(() => notice.textContent(), POLL)
      .toMatch(/^Saved as version 2: Repaired from run .*: 1 case/);
    await expect.poll(() => first.getAttribute('data-status'), POLL).toBe('approved');
    expect(await first.getByTestId('repair-decision').textContent()).toBe('Approved · saved in version 2');

    // 'Approve all' takes what is left: the third.
    await page.getByRole('button', { name: 'Approve all repairs (1)' }).click();
    await expect.poll(() => notice.textContent(), POLL).toMatch(/^Saved as version 3: /);
    const third = cardOf(CASES[2].test_name);
    await expect.poll(() => third.getAttribute('data-status'), POLL).toBe('approved');
    expect(await page.getByTestId('repairs-toolbar').textContent()).toContain('Nothing waits for review');
    await shootBoth(page, 'run-repairs-decided', a11y);

    // The suite now has the repaired steps, the rejected case as it was.
    const suite = await api<{
      version: number;
      test_cases: { steps: string[] }[];
      versions: { change: string }[];
    }>(token, 'GET', `/api/projects/${projectId}/suites/${suiteId}`);
    expect(suite.version).toBe(3);
    expect(suite.test_cases[0].steps[1]).not.toBe(CASES[0].steps[1]);
    expect(suite.test_cases[1].steps).toEqual(CASES[1].steps);
    expect(suite.test_cases[2].steps[1]).not.toBe(CASES[2].steps[1]);
    expect(a11y).toEqual([]);
  }, 180_000);

  it('lists a suite’s proposals from the project’s suites; one decided elsewhere is refused with the server’s words, the rest approved', async () => {
    expect(otherSuiteId).not.toBe('');
    const page = await pages.open();
    await signIn(page, server.url, username);
    const a11y: string[] = [];
    await page.goto(`${server.url}/projects/${projectId}`);
    const item = page.locator('[data-testid="saved-suite"][data-name="Adding todos again"]');
    const entry = item.getByTestId('suite-repairs-link');
    await expect.poll(() => entry.textContent(), POLL).toBe('Repairs (3)');
    expect(await item.getByTestId('suite-regenerate-link').getAttribute('href')).toBe(
      `/projects/${projectId}/suites/${otherSuiteId}/regenerate`,
    );
    await item.scrollIntoViewIfNeeded();
    await shootBoth(page, 'project-suites', a11y);
    await entry.click();
    await page.waitForURL((url) => url.pathname === `/projects/${projectId}/suites/${otherSuiteId}/repairs`);
    await page.getByRole('heading', { level: 1, name: 'Repairs of Adding todos again' }).waitFor();
    const cards = page.getByTestId('repair-card');
    await expect.poll(() => cards.count(), POLL).toBe(3);
    await imagesLoaded(page);
    await shootBoth(page, 'suite-repairs', a11y);

    // Another reviewer approves the last one meanwhile: approving it here is refused, said in the
    // server's words, and the list is read again.
    const last = cards.nth(2);
    const lastName = (await last.getByRole('heading').textContent()) ?? '';
    const listed = await api<CaseRepairList>(
      token,
      'GET',
      `/api/projects/${projectId}/suites/${otherSuiteId}/repairs?status=proposed`,
    );
    const lastId = listed.repairs.find((r) => r.case_name === lastName)?.id ?? '';
    await api(token, 'POST', `/api/projects/${projectId}/suites/${otherSuiteId}/repairs/approve`, {
      ids: [lastId],
    });
    await last.getByRole('button', { name: /^Approve the repair/ }).click();
    const notice = page.getByTestId('repairs-notice');
    await expect
      .poll(() => notice.textContent(), POLL)
      .toBe(`The repair of "${lastName}" is approved: only a proposed repair is approved`);
    expect(await notice.getAttribute('role')).toBe('alert');
    await expect.poll(() => cards.count(), POLL).toBe(2);

    // Choose the two left with their checkboxes (one by keyboard), then approve the selection: one version.
    await cards.nth(0).getByRole('checkbox').focus();
    await page.keyboard.press('Space');
    await cards.nth(1).getByRole('checkbox').check();
    expect(await page.getByTestId('repairs-toolbar').textContent()).toContain('2 selected');
    await page.getByRole('button', { name: 'Approve selected' }).click();
    await expect
      .poll(() => notice.textContent(), POLL)
      .toMatch(/^Saved as version 3: Repaired from run .*: 2 cases$/);
    await page.getByText('No repairs waiting for review').waitFor();
    await shootBoth(page, 'suite-repairs-empty', a11y);
    await page.goto(`${server.url}/projects/${projectId}`);
    await expect.poll(() => item.getByTestId('suite-repairs-link').textContent(), POLL).toBe('Repairs');
    expect(a11y).toEqual([]);
  }, 120_000);

  it('labels a failure the app’s bug causes a bug, with no repair to approve', async () => {
    app.setRedesign(false);
    app.setBug('add-does-nothing');
    let bugRun = '';
    try {
      bugRun = await runSuite(token, projectId, otherSuiteId);
    } finally {
      app.setBug(null);
    }
    const page = await pages.open();
    await signIn(page, server.url, username);
    const a11y: string[] = [];
    await page.goto(`${server.url}/history/runs/${bugRun}?tab=repairs`);
    const cards = page.getByTestId('repair-card');
    await expect.poll(() => cards.count(), POLL).toBeGreaterThan(0);
    expect(await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-verdict')))).toEqual(
      Array(await cards.count()).fill('bug'),
    );
    await cards.first().getByText('Looks like a bug — no repair').waitFor();
    expect(await page.getByRole('button', { name: /^Approve|^Reject/ }).count()).toBe(0);
    await shootBoth(page, 'run-bugs', a11y);
    expect(a11y).toEqual([]);
  }, 180_000);

  it('regenerates a suite, cancelled once, then reviews the comparison and accepts it as a version', async () => {
    const page = await pages.open();
    await signIn(page, server.url, username);
    const a11y: string[] = [];
    // A comparison that does not exist says so, in the server's words.
    await page.goto(`${server.url}/projects/${projectId}/suites/${otherSuiteId}/comparisons/nothing-here`);
    await expect
      .poll(() => page.getByRole('alert').first().textContent(), POLL)
      .toBe('Suite comparison not found');
    await page.goto(`${server.url}/projects/${projectId}/suites/${otherSuiteId}/regenerate`);
    await page.getByRole('heading', { level: 1, name: 'Regenerate Adding todos again' }).waitFor();
    await shootBoth(page, 'regenerate', a11y);

    // Cancel stops waiting, and the form is back.
    await page.getByRole('button', { name: 'Regenerate' }).click();
    const busy = page.getByTestId('regenerate-busy');
    await busy.waitFor();
    await busy
      .getByRole('status')
      .filter({ hasText: /^Generating cases on staging/ })
      .waitFor();
    await busy.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Regenerate' }).waitFor();

    await page.getByRole('button', { name: 'Regenerate' }).click();
    await page.waitForURL((url) => /\/comparisons\/[^/]+$/.test(url.pathname), { timeout: 300_000 });
    const review = page.getByTestId('comparison-review');
    await review.waitFor();
    const counts = await page.getByTestId('comparison-counts').textContent();
    expect(counts).toMatch(/^Added \d+ · Removed \d+ · Changed \d+ · Unchanged \d+ · against version 3/);
    // Chosen at first: added ones and changed ones not curated; never a removal.
    const chosen = await review
      .getByTestId('comparison-change')
      .evaluateAll((els) =>
        els.map((el) => [
          el.getAttribute('data-kind'),
          (el as unknown as { querySelector: (s: string) => { checked: boolean } | null }).querySelector(
            'input[type=checkbox]',
          )?.checked ?? null,
          Boolean(
            (el as unknown as { querySelector: (s: string) => unknown }).querySelector(
              '[data-testid="curated-badge"]',
            ),
          ),
        ]),
      );
    for (const [kind, checked, curated] of chosen) {
      if (kind === 'added') expect(checked).toBe(true);
      if (kind === 'removed') expect(checked).toBe(false);
      if (kind === 'changed') expect(checked).toBe(!curated);
      if (kind === 'unchanged') expect(checked).toBeNull();
    }
    await shootBoth(page, 'comparison', a11y);
    const acceptable = chosen.filter(([kind]) => kind !== 'unchanged').length;
    if (acceptable > 0) {
      // At least one change chosen, then accepted: one new version.
      const first = review
        .getByTestId('comparison-change')
        .filter({ has: page.getByRole('checkbox') })
        .first();
      await first.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Accept selected' }).click();
      await expect
        .poll(() => page.getByTestId('comparison-notice').textContent(), POLL)
        .toMatch(/^Saved as version 4/);
      const suite = await api<{ version: number }>(
        token,
        'GET',
        `/api/projects/${projectId}/suites/${otherSuiteId}`,
      );
      expect(suite.version).toBe(4);
      await shootBoth(page, 'comparison-accepted', a11y);
    }
    expect(a11y).toEqual([]);
  }, 420_000);

  it('warns of a repair that weakens a check, leaves it out of Approve all, and approves it only confirmed', async () => {
    app.setRedesign(false);
    const weakUser = await registerAccount(server.url, 'weak');
    const page = await pages.open();
    await signIn(page, server.url, weakUser);
    const weakToken = await pageToken(page);
    await api(weakToken, 'PUT', '/api/settings', {
      ai_provider: 'openai-compatible',
      ai_model: 'qwen2.5-coder',
      ai_base_url: model.baseUrl,
      ai_api_key: 'sk-e2e-5678',
    });
    const project = await api<{ id: string }>(weakToken, 'POST', '/api/projects', {
      name: 'Todos with a model',
      kind: 'web',
      environments: [{ name: 'staging', base_url: `${app.url}/` }],
    });
    const steps = [
      'Navigate to /',
      'Fill "New todo" with "Buy milk"',
      'Press Enter in "New todo"',
      'Verify text "todos for today" is visible',
    ];
    const suite = await api<{ id: string }>(weakToken, 'POST', `/api/projects/${project.id}/suites`, {
      name: 'Heading',
      test_cases: [{ test_name: 'Shows the day’s heading', steps }],
    });
    const run = await runSuite(weakToken, project.id, suite.id);
    const a11y: string[] = [];
    await page.goto(`${server.url}/history/runs/${run}?tab=repairs`);
    const card = page.getByTestId('repair-card');
    await card.waitFor();
    expect(await card.getAttribute('data-verdict')).toBe('weakens');
    const warning = card.getByTestId('repair-weakenings');
    expect(await warning.textContent()).toMatch(/^Weakens an assertion/);
    expect(await warning.textContent()).toContain('A checked text is widened');
    expect(await page.getByRole('button', { name: 'Approve all repairs (0)' }).isDisabled()).toBe(true);
    await shootBoth(page, 'run-weakens', a11y);

    // Selecting it asks first; cancelled, it stays unselected.
    await card.getByRole('checkbox').click();
    const dialog = page.getByRole('dialog', { name: 'Approve a repair that weakens an assertion?' });
    await dialog.waitFor();
    a11y.push(...(await axeFailures(page, 'weakening confirmation')));
    await page.screenshot({ path: `${SHOTS}/weakens-confirm-1440.png` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await card.getByRole('checkbox').isChecked()).toBe(false);

    // Approved, confirmed: saved with the weaker check.
    await card.getByRole('button', { name: /^Approve the repair/ }).click();
    await dialog.getByRole('button', { name: 'Approve anyway' }).click();
    await expect
      .poll(() => page.getByTestId('repairs-notice').textContent(), POLL)
      .toMatch(/^Saved as version 2: Repaired from run .*: 1 case$/);
    const saved = await api<{ test_cases: { steps: string[] }[] }>(
      weakToken,
      'GET',
      `/api/projects/${project.id}/suites/${suite.id}`,
    );
    expect(saved.test_cases[0].steps[3]).toBe('Verify text "todos" is visible');
    expect(a11y).toEqual([]);
  }, 180_000);
});
