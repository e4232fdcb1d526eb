import { join } from 'node:path';
import { ruleModel, type ScriptedModelServer, startScriptedModelServer } from '@argus/ai/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_EXPLORATION } from '../apps/server/src/testing/small-exploration';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { TODO_LLM_SUITE } from '../fixtures/apps/llm-suites';
import { type FixtureApp, serveFixtureApp } from '../fixtures/apps/serve';
import { PASSWORD, PageOpener, registerAccount, signIn, toast } from './support/app';
import { describeViolations, isBlocking, runAxe } from './support/axe';
import { launchBrowser } from './support/browser';

/**
 * The automation screen with the LLM engine: the user's Settings name a model (the scripted
 * OpenAI-compatible server on 127.0.0.1, rules over the prompts), so the suite is written by it, a
 * run carries out its free-form step and judges each expected result with it, and the screen says
 * which engine did what and what the model calls cost. A rerun of the unchanged suite replays what
 * the model resolved from the cache: no model call, and the screen says so.
 */

const LLM = 'LLM (openai-compatible · qwen2.5-coder)';
const RUN_ENGINE = `built-in (rule-based) for step-language lines; ${LLM} for free-form steps and expected results`;
const GENERATION_TIMEOUT = 120_000;
const RUN_TIMEOUT = 180_000;
/** Each model reply waits this long, so the model's live thought can be seen on the screen. */
const MODEL_DELAY_MS = 1200;
/** Screenshots to look at, outside the repository. */
const SHOTS_DIR = '/tmp';

const SUITE = TODO_LLM_SUITE;

let server: RunningServer;
let model: ScriptedModelServer;
let app: FixtureApp;
let browser: Browser;
const pages = new PageOpener(() => browser);
const rules = ruleModel(SUITE);

beforeAll(async () => {
  [server, model, app, browser] = await Promise.all([
    // The scripted model writes the suite whatever was explored: a small exploration will do.
    spawnServer({ ...SMALL_EXPLORATION, ALLOWED_TARGETS: '127.0.0.1', AUTOMATION_PARALLELISM: '1' }),
    startScriptedModelServer(async (request, index) => {
      await new Promise((resolve) => setTimeout(resolve, MODEL_DELAY_MS));
      return rules(request, index);
    }),
    serveFixtureApp('todo'),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await pages.closeAll();
  await browser?.close();
  await app?.close();
  await model?.close();
  await server?.stop();
});

async function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, init);
}

/** A user with the scripted model in their Settings, made through the REST API. */
async function userWithModel(): Promise<string> {
  const username = await registerAccount(server.url, 'llm');
  const login = await api('/api/auth/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password: PASSWORD }).toString(),
  });
  expect(login.status).toBe(200);
  const { access_token: token } = (await login.json()) as { access_token: string };
  const saved = await api('/api/settings', {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({
      ai_provider: 'openai-compatible',
      ai_model: 'qwen2.5-coder',
      ai_base_url: model.baseUrl,
      ai_api_key: 'sk-e2e-5678',
    }),
  });
  expect(saved.status).toBe(200);
  return username;
}

async function waitForState(page: Page, state: string, timeout: number) {
  await page.locator(`[data-testid="automation-status"][data-state="${state}"]`).waitFor({ timeout });
}

async function shoot(target: Locator | Page, name: string) {
  const path = join(SHOTS_DIR, `llm-${name}.png`);
  if ('goto' in target) await target.screenshot({ path, fullPage: true });
  else await target.screenshot({ path });
}

/** The middle and right columns side by side: progress, the step log, the results. */
async function resultsArea(page: Page, name: string) {
  const log = page.getByTestId('execution-log');
  const scroller = page.getByTestId('log-scroll');
  // The whole list at once, for the picture, then back to its scrolling height.
  await scroller.evaluate((el) => {
    el.style.maxHeight = 'none';
  });
  await shoot(log, `${name}-log`);
  await scroller.evaluate((el) => {
    el.style.maxHeight = '';
  });
  await shoot(page.getByTestId('results-summary'), `${name}-summary`);
  await shoot(page, `${name}-page`);
}

function entries(page: Page, resolvedBy?: string) {
  return page.locator(
    resolvedBy ? `[data-testid="log-entry"][data-resolved-by="${resolvedBy}"]` : '[data-testid="log-entry"]',
  );
}

describe('the LLM engine on the automation screen', () => {
  it('says which engine wrote, ran and judged each step, what it cost, and that a rerun cost nothing', async () => {
    const username = await userWithModel();
    const page = await pages.open();
    await signIn(page, server.url, username);
    await page.getByTestId('sidebar').getByRole('link', { name: 'Automation Mode' }).click();
    await page.waitForURL((url) => url.pathname === '/automation');
    await page.locator('[data-testid="automation-connection"][data-status="connected"]').waitFor();

    // Generation: written by the model, with its one call's tokens and cost.
    await page.getByLabel('Website URL').fill(`${app.url}/`);
    await page.getByRole('button', { name: 'Generate Test Cases' }).click();
    await toast(page, 'Generated 2 test case(s) for full testing').waitFor({ timeout: GENERATION_TIMEOUT });
    expect(model.requests).toHaveLength(1);
    const engineLabel = page.getByTestId('engine-label');
    expect(await engineLabel.textContent()).toContain(`Generated by ${LLM}`);
    expect(await page.getByTestId('generation-usage').textContent()).toBe(
      'Model: 1 call · 3,800 tokens · $0.00 est.',
    );
    expect(await page.getByTestId('generation-usage').getAttribute('title')).toBe(
      '3,000 input + 800 output tokens',
    );
    await shoot(page.getByTestId('test-cases-panel'), 'generated');

    // First run: the free-form step by the model (its thought shown while it works), both expected
    // results judged by it, the run's engine and its model calls.
    await page.getByRole('button', { name: 'Run All Tests' }).click();
    await waitForState(page, 'running', 10_000);
    expect(await page.getByTestId('run-engine').textContent()).toBe(`Run by: ${RUN_ENGINE}`);
    const thinking = page.getByTestId('log-entry-thinking').first();
    await thinking.waitFor({ timeout: 60_000 });
    expect(await thinking.textContent()).toMatch(/Next goal: .+/);
    await shoot(page.getByTestId('execution-log'), 'thinking-log');
    await waitForState(page, 'completed', RUN_TIMEOUT);
    expect(await page.getByTestId('summary-passed').textContent()).toBe('2');
    const firstRunCalls = model.requests.length - 1;
    expect(firstRunCalls).toBe(5); // fill, press, done, and one judgement per case
    expect(await page.getByTestId('run-engine').textContent()).toBe(`Run by: ${RUN_ENGINE}`);
    const usage = await page.getByTestId('run-usage').textContent();
    expect(usage).toMatch(/^Model: 5 calls · [\d,]+ tokens · \$0\.00 est\.$/);
    expect(await page.locator('[data-testid="log-entry"][data-status="pending"]').count()).toBe(0);

    const byModel = entries(page, 'model');
    expect(await byModel.count()).toBe(3);
    const freeForm = byModel.filter({ hasText: 'Add a to-do called "Buy milk"' });
    expect(await freeForm.getByTestId('step-engine-badge').textContent()).toBe('AI');
    const title = await freeForm.getByTestId('step-engine-badge').getAttribute('title');
    expect(title).toMatch(
      new RegExp(`^Carried out by ${LLM.replace(/[()]/g, '\\$&')} · 3 calls · [\\d,]+ tokens`),
    );
    expect(await freeForm.getByTestId('log-entry-outcome').textContent()).toMatch(/^Done: .+/);
    const judged = byModel.filter({ hasText: 'Judge the expected result' });
    expect(await judged.count()).toBe(2);
    expect(await judged.getByTestId('log-entry-outcome').allTextContents()).toEqual([
      'Verdict: The page shows "Write report"',
      'Verdict: The page shows "Buy milk"',
    ]);
    // Step-language lines are the built-in engine's: no badge.
    const plain = page.locator('[data-testid="log-entry"]:not([data-resolved-by])');
    expect(await plain.count()).toBeGreaterThan(3);
    expect(await plain.getByTestId('step-engine-badge').count()).toBe(0);
    // The details name the engine and the model calls of each step.
    await page.getByRole('button', { name: 'Show details' }).click();
    expect(await freeForm.locator('dd').allTextContents()).toEqual(
      expect.arrayContaining([LLM, expect.stringMatching(/^3 calls · [\d,]+ tokens · \$0\.00 est\. \(/)]),
    );
    await page.getByRole('button', { name: 'Show details' }).click();
    await resultsArea(page, 'first-run');

    // Rerun: everything the model resolved is replayed from the cache, and the screen says so.
    const before = model.requests.length;
    await page.getByRole('button', { name: 'Run All Tests' }).click();
    await waitForState(page, 'running', 10_000);
    await waitForState(page, 'completed', RUN_TIMEOUT);
    expect(await page.getByTestId('summary-passed').textContent()).toBe('2');
    expect(model.requests.length).toBe(before);
    expect(await page.getByTestId('run-usage').textContent()).toBe('0 model calls (all replayed from cache)');
    expect(await entries(page, 'model').count()).toBe(0);
    const cached = entries(page, 'cache');
    expect(await cached.count()).toBe(3);
    expect(await cached.getByTestId('step-engine-badge').allTextContents()).toEqual([
      'AI · from cache',
      'AI · from cache',
      'AI · from cache',
    ]);
    expect(await cached.first().getByTestId('step-engine-badge').getAttribute('title')).toBe(
      `Carried out by ${LLM} · replayed from the cache: no model call`,
    );
    await resultsArea(page, 'rerun');
    // The badges, verdicts and usage lines pass axe (contrast included), details shown too.
    await page.getByRole('button', { name: 'Show details' }).click();
    const violations = (await runAxe(page)).filter(isBlocking);
    expect(describeViolations(violations)).toEqual([]);
    await page.getByRole('button', { name: 'Show details' }).click();

    // A narrow screen keeps the badges and the usage readable, without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shoot(page.getByTestId('execution-log'), 'rerun-390-log');
    await shoot(page.getByTestId('results-summary'), 'rerun-390-summary');
  });
});
