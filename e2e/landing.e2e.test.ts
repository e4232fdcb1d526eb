import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { ARTIFACTS_DIR, launchBrowser, screenshot } from './support/browser';

/** The landing page at `/` (docs/PRODUCT.md#landing-page, docs/PRODUCT.md#pricing) against the real server. */

const HIGHLIGHTS = [
  'AI-Powered Test Generation',
  'Natural Language Testing',
  'Real-Time Visual Monitoring',
  'Smart Test Orchestration',
];

let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([spawnServer(), launchBrowser()]);
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
  await server?.stop();
});

async function openLanding(width = 1440, height = 900): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${server.url}/`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return page;
}

async function fullPageShot(page: Page, name: string) {
  await page.screenshot({ path: join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
}

function activeHighlightTitle(page: Page) {
  return page.getByTestId('active-highlight').getByRole('heading', { level: 3 });
}

async function currentHighlight(page: Page): Promise<string> {
  const text = (await activeHighlightTitle(page).textContent()) ?? '';
  const found = HIGHLIGHTS.find((title) => text.includes(title));
  if (!found) throw new Error(`no known highlight in "${text}"`);
  return found;
}

async function waitForHighlight(page: Page, title: string, timeout = 6000) {
  await page
    .getByTestId('active-highlight')
    .getByRole('heading', { level: 3, name: title })
    .waitFor({ timeout });
}

function demoDialog(page: Page) {
  return page.getByRole('dialog', { name: 'Schedule a Demo' });
}

async function fillDemoForm(page: Page, who: string) {
  const dialog = demoDialog(page);
  await dialog.getByLabel('Name').fill(`${who} Tester`);
  await dialog.getByLabel('Work email').fill(`${who.toLowerCase()}@example.com`);
  await dialog.getByLabel('Company').fill('Acme Outfitters');
  await dialog.getByLabel('Message').fill('We would like to see automation mode.');
}

describe('landing page', () => {
  it('shows the navigation, hero, feature cards, stats, testimonials, steps, plans and closing call to action', async () => {
    const page = await openLanding();

    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Schedule Demo' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login');
    expect(await nav.getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe('/register');

    // Hero: signed-out visitors get the free trial; the product is marked as coming soon.
    expect(await page.getByRole('link', { name: 'Start Free Trial' }).first().getAttribute('href')).toBe(
      '/register',
    );
    await page.getByText('Coming soon · Early access now open').waitFor();

    // Feature cards: each 'Get Started' leads to its own screen.
    const features = page.locator('#features');
    const hrefs = await features
      .getByRole('link', { name: /^Get Started/ })
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(
      expect.arrayContaining(['/automation', '/conversational', '/figma-comparison', '/analytics']),
    );
    expect(new Set(hrefs).size).toBe(hrefs.length);

    // Stats strip: the marketing claims, exactly.
    const stats = page.getByRole('region', { name: 'Argus in numbers' });
    for (const value of ['10K+', '500K+', '99.9%', '99.99%']) {
      await stats.getByText(value, { exact: true }).waitFor();
    }

    expect(await page.locator('figure blockquote').count()).toBe(3);

    const steps = page.locator('#how-it-works li');
    expect(await steps.count()).toBe(3);
    expect(await steps.allTextContents()).toEqual([
      expect.stringContaining('Connect your application'),
      expect.stringContaining('AI generates your test suite'),
      expect.stringContaining('Execute and monitor'),
    ]);

    // Pricing: the four plans of docs/PRODUCT.md#pricing.
    const pricing = page.locator('#pricing');
    const plan = (name: string) => pricing.getByRole('article', { name, exact: true });
    expect(await pricing.getByRole('article').count()).toBe(4);
    const basic = (await plan('Basic').textContent()) ?? '';
    expect(basic).toContain('$99');
    expect(basic).toContain('/month');
    for (const feature of [
      '500 test executions a month',
      'Up to 5 team members',
      '30-day test history',
      'Email support',
      'Basic analytics',
    ]) {
      expect(basic).toContain(feature);
    }
    const pro = (await plan('Pro').textContent()) ?? '';
    expect(pro).toContain('$499');
    expect(pro).toContain('Most Popular');
    for (const feature of [
      'Unlimited test executions',
      'Unlimited team members',
      'Full API access',
      'Custom AI models',
      'Priority support',
    ]) {
      expect(pro).toContain(feature);
    }
    expect(await plan('Pro').getAttribute('data-popular')).toBe('true');
    const perTest = (await plan('Pay-Per-Test').textContent()) ?? '';
    expect(perTest).toContain('$0.10');
    expect(perTest).toContain('/test');
    expect(perTest).toContain('Startup Friendly');
    const enterprise = plan('Enterprise');
    expect(await enterprise.textContent()).toContain('Custom');
    expect(await enterprise.getByRole('link', { name: 'Contact Sales' }).getAttribute('href')).toMatch(
      /^mailto:/,
    );
    await pricing.getByText('14-day free trial, no credit card required').waitFor();

    // Closing call to action.
    const cta = page.locator('section[aria-labelledby="cta-title"]');
    await cta.getByText('No credit card required', { exact: true }).waitFor();
    await cta.getByText('14-day free trial • Cancel anytime', { exact: true }).waitFor();
    expect(await cta.getByRole('link', { name: 'Start Automation' }).getAttribute('href')).toBe(
      '/automation',
    );
    expect(await cta.getByRole('link', { name: 'Start Conversation' }).getAttribute('href')).toBe(
      '/conversational',
    );
    await page.getByRole('contentinfo').waitFor();

    await screenshot(page, 'landing-1440');
    await fullPageShot(page, 'landing-1440-full');
  });

  // No upper bound on the time a turn takes (a busy machine would fail it): the rotation moves on by
  // itself, in order, and a picked highlight keeps its full turn (not under 3 s of its 3.5 s).
  it('rotates the four feature highlights in order and lets a dot pick one, which gets a full turn', async () => {
    const page = await openLanding();
    const first = await currentHighlight(page);
    const next = HIGHLIGHTS[(HIGHLIGHTS.indexOf(first) + 1) % HIGHLIGHTS.length];
    await waitForHighlight(page, next, 5000);

    // Picking one restarts its 3.5 s; the following one comes after that.
    await page.getByRole('button', { name: `Show ${HIGHLIGHTS[1]}` }).click();
    const picked = Date.now();
    await waitForHighlight(page, HIGHLIGHTS[1], 1000);
    expect(
      await page.getByRole('button', { name: `Show ${HIGHLIGHTS[1]}` }).getAttribute('aria-current'),
    ).toBe('true');
    await waitForHighlight(page, HIGHLIGHTS[2], 6000);
    const elapsed = Date.now() - picked;
    expect(elapsed).toBeGreaterThan(3000);
    expect(
      await page.getByRole('button', { name: `Show ${HIGHLIGHTS[2]}` }).getAttribute('aria-current'),
    ).toBe('true');
  });

  it("shows an alert naming the feature when 'Coming Soon' is pressed", async () => {
    const page = await openLanding();
    await page.getByRole('button', { name: 'Pause feature rotation' }).click();
    const title = await currentHighlight(page);

    const dialogMessage = new Promise<string>((resolve) => {
      page.once('dialog', async (dialog) => {
        expect(dialog.type()).toBe('alert');
        const message = dialog.message();
        await dialog.accept();
        resolve(message);
      });
    });
    await page.getByTestId('active-highlight').getByRole('button', { name: 'Coming Soon' }).click();
    const message = await dialogMessage;
    expect(message).toContain(title);
    expect(message.toLowerCase()).toContain('coming soon');
  });

  it('opens the walkthrough from Watch Demo, links to the live conversation, and closes with Esc', async () => {
    const page = await openLanding();
    await page.getByRole('button', { name: 'Watch Demo' }).click();
    const dialog = page.getByRole('dialog', { name: 'See Argus in action' });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await dialog.getByRole('link', { name: 'Try it live' }).getAttribute('href')).toBe(
      '/conversational',
    );
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Watch Demo' }).click();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('sends a demo request, shows its progress, stores it (201), clears the form and closes after 2 s', async () => {
    const page = await openLanding();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Schedule Demo' })
      .click();
    const dialog = demoDialog(page);
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('demo-name');

    // Required fields block an empty submission (HTML validation): nothing is sent.
    let posts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/demo-requests')) posts += 1;
    });
    await dialog.getByRole('button', { name: 'Submit Request' }).click();
    await page.waitForTimeout(300);
    expect(posts).toBe(0);
    expect(await dialog.getByLabel('Work email').getAttribute('type')).toBe('email');

    await fillDemoForm(page, 'Dana');
    const answer = page.waitForResponse(
      (response) => response.url().endsWith('/api/demo-requests') && response.request().method() === 'POST',
    );
    await dialog.getByRole('button', { name: 'Submit Request' }).click();
    await dialog.getByRole('button', { name: /^(Sending\.\.\.|✓ Request Sent!)$/ }).waitFor();

    const response = await answer;
    expect(response.status()).toBe(201);
    const body = (await response.json()) as { success: boolean; id: string; message: string };
    expect(body.success).toBe(true);
    expect(typeof body.id).toBe('string');
    expect(body.id.length).toBeGreaterThan(0);
    expect(response.request().postDataJSON()).toEqual({
      name: 'Dana Tester',
      email: 'dana@example.com',
      company: 'Acme Outfitters',
      message: 'We would like to see automation mode.',
    });

    await dialog.getByRole('button', { name: '✓ Request Sent!' }).waitFor();
    const sentAt = Date.now();
    await dialog.waitFor({ state: 'detached', timeout: 5000 });
    const closedAfter = Date.now() - sentAt;
    expect(closedAfter).toBeGreaterThan(1500);
    expect(closedAfter).toBeLessThan(3500);

    // Reopened: the form was cleared.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Schedule Demo' })
      .click();
    await dialog.waitFor();
    for (const label of ['Name', 'Work email', 'Company', 'Message']) {
      expect(await dialog.getByLabel(label).inputValue()).toBe('');
    }
    await dialog.getByRole('button', { name: 'Submit Request' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it("shows 'Error - Try Again' when the server fails, and lets the visitor retry", async () => {
    const page = await openLanding();
    await page.route('**/api/demo-requests', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ detail: 'Internal server error' }),
      }),
    );
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Schedule Demo' })
      .click();
    const dialog = demoDialog(page);
    await fillDemoForm(page, 'Eli');
    await dialog.getByRole('button', { name: 'Submit Request' }).click();

    const retry = dialog.getByRole('button', { name: 'Error - Try Again' });
    await retry.waitFor();
    expect(await retry.isEnabled()).toBe(true);
    await dialog.getByRole('alert').filter({ hasText: 'Internal server error' }).waitFor();
    // The visitor's input is kept for the retry.
    expect(await dialog.getByLabel('Company').inputValue()).toBe('Acme Outfitters');
    await page.waitForTimeout(300); // let the button's colour transition finish before the picture
    await screenshot(page, 'landing-demo-error');

    await page.unroute('**/api/demo-requests');
    const answer = page.waitForResponse((response) => response.url().endsWith('/api/demo-requests'));
    await retry.click();
    expect((await answer).status()).toBe(201);
    await dialog.getByRole('button', { name: '✓ Request Sent!' }).waitFor();
    await dialog.waitFor({ state: 'detached', timeout: 5000 });
  });

  it('collapses the navigation into a menu at 390 px that opens to show Login and Get Started', async () => {
    const page = await openLanding(390, 844);
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Login' }).isVisible()).toBe(false);
    await screenshot(page, 'landing-390');
    await fullPageShot(page, 'landing-390-full');

    const toggle = page.getByRole('button', { name: 'Open menu' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    const menu = page.locator('#landing-mobile-menu');
    await menu.getByRole('link', { name: 'Login' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login');
    expect(await menu.getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe('/register');
    await menu.getByRole('button', { name: 'Schedule Demo' }).waitFor();
    expect(await page.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'landing-390-menu');

    // The menu's Schedule Demo opens the demo form and closes the menu.
    await menu.getByRole('button', { name: 'Schedule Demo' }).click();
    await demoDialog(page).waitFor();
    expect(await menu.count()).toBe(0);
    await screenshot(page, 'landing-390-demo');
    await demoDialog(page).getByRole('button', { name: 'Close' }).click();
    await demoDialog(page).waitFor({ state: 'detached' });
  });
});
