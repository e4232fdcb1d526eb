import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FakeFigmaApi, landingFixture, startFakeFigmaApi } from '@argus/design-diff/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { landingPage } from '../fixtures/design/landing';
import { PageOpener, registerAccount, signIn, toast } from './support/app';
import { describeViolations, isBlocking, runAxe } from './support/axe';
import { launchBrowser, screenshot } from './support/browser';

/**
 * The Design Comparison screen against the real server and its design-diff engine: the fixture landing
 * page (fixtures/design/landing.ts) is the website, and a capture of its 'colour' variant (the button's
 * colour changed) is the uploaded design. Upload, compare, read the score and its badge, every tab,
 * the issue boxes, copy a CSS fix, export, reopen with ?session=, the access modal, and the client-side
 * checks of docs/PRODUCT.md#comparison-inputs. Then the Figma path, with the server pointed at a fake Figma API serving the
 * landing page's Figma file (fixtures/figma/): a score and the CSS fixes read from the design's styles,
 * then a file Figma refuses (403): the toast, the access modal and its 'Got it!'.
 */

const DESKTOP = { width: 1920, height: 1080 };
const FIGMA_TOKEN = 'figma-e2e-token';
const FILE_KEY = 'LandingKey1234567890';
const PRIVATE_KEY = 'PrivateKey1234567890';

let server: RunningServer;
let site: { url: string; close: () => Promise<void> };
let browser: Browser;
let design: Buffer;
let figma: FakeFigmaApi;
const pages = new PageOpener(() => browser);

/** The clean landing page on 127.0.0.1 (ALLOWED_TARGETS names it, so the server's browser may open it). */
async function serveLanding(): Promise<{ url: string; close: () => Promise<void> }> {
  const http: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(landingPage('clean'));
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((done) => http.close(() => done())),
  };
}

/** The landing page in `variant`, captured at `viewport` as a designer's export would be. */
async function capture(variant: Parameters<typeof landingPage>[0], viewport: typeof DESKTOP) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.setContent(landingPage(variant));
  // A frame painted first: under load Chromium refused a capture of a page not yet drawn ("Unable
  // to capture screenshot", seen once in a fresh clone's npm test); asked again once if it still does.
  await page.evaluate(
    () => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))),
  );
  const png = await page
    .screenshot({ type: 'png' })
    .catch((error: unknown) =>
      String(error).includes('Unable to capture screenshot')
        ? page.screenshot({ type: 'png' })
        : Promise.reject(error),
    );
  await context.close();
  return png;
}

beforeAll(async () => {
  [site, browser] = await Promise.all([serveLanding(), launchBrowser()]);
  // The design: the page with its planted change, as a designer's export at the desktop width.
  design = await capture('colour', DESKTOP);
  // The Figma file: its Desktop frame rendered as the fixture's PNG, its Mobile frame (2:1) as the page
  // at the phone width; the UI compares every default viewport, so Figma renders both.
  const { file, desktopPng } = landingFixture();
  const mobilePng = await capture('clean', { width: 390, height: 844 });
  figma = await startFakeFigmaApi({
    tokens: [FIGMA_TOKEN],
    files: {
      [FILE_KEY]: { file, renders: { '1:2': desktopPng, '2:1': mobilePng } },
      [PRIVATE_KEY]: { file, behaviour: 'forbidden' },
    },
  });
  server = await spawnServer({
    ALLOWED_TARGETS: '127.0.0.1',
    FIGMA_TOKEN,
    FIGMA_TOKEN_SHARED: 'true',
    FIGMA_API_BASE: figma.url,
  });
});

afterAll(async () => {
  await pages.closeAll();
  await browser?.close();
  await site?.close();
  await server?.stop();
  await figma?.close();
});

function newPage(width = 1440, height = 1000): Promise<Page> {
  return pages.open({ width, height, timeout: 30_000, acceptDownloads: true, clipboardOrigin: server.url });
}

/** Signed in, on the Design Comparison screen through the sidebar, its socket connected. */
async function openScreen(page: Page): Promise<void> {
  await signIn(page, server.url, await registerAccount(server.url, 'cmp'));
  await page.getByTestId('sidebar').getByRole('link', { name: 'Figma Comparison' }).click();
  await page.waitForURL((url) => url.pathname === '/figma-comparison');
  await page.getByRole('main').getByRole('heading', { level: 1, name: 'Design Comparison' }).waitFor();
  await page.locator('[data-testid="comparison-connection"][data-status="connected"]').waitFor();
}

async function axeFailures(page: Page, state: string): Promise<string[]> {
  const violations = await runAxe(page);
  return describeViolations(violations.filter(isBlocking)).map((line) => `${state}: ${line}`);
}

describe('the Design Comparison screen', () => {
  it('compares an uploaded design with a website: score, badge, tabs, boxes, copy, export, reopen', async () => {
    const page = await newPage();
    await openScreen(page);
    const main = page.getByRole('main');
    expect(await page.getByTestId('comparison-connection').textContent()).toBe('Connected');
    // A new account has no past comparisons.
    const past = main.getByTestId('past-comparisons');
    await past.getByText('No comparisons yet').waitFor();
    const a11y: string[] = await axeFailures(page, 'idle');
    await screenshot(page, 'design-comparison-idle');

    // ---- docs/PRODUCT.md#comparison-inputs, client side --------------------------------------------------------------------
    const start = main.getByRole('button', { name: 'Start Comparison' });
    expect(await start.isDisabled()).toBe(true);
    await main.getByLabel('Figma File URL').fill('https://example.com/design/x');
    await main.getByText('Please enter a valid Figma file URL').waitFor();
    await main.getByLabel('Website to Compare').fill('example.com');
    await main.getByText('Please enter a valid website URL').waitFor();
    // Inline and red (docs/PRODUCT.md#comparison-inputs).
    expect(await main.getByText('Please enter a valid website URL').getAttribute('class')).toContain(
      'text-red-600',
    );
    await main.getByLabel('Figma File URL').fill('https://www.figma.com/design/AbCdEf123456/Landing');
    expect(await main.getByText('Please enter a valid Figma file URL').count()).toBe(0);
    expect(await start.isDisabled()).toBe(true);
    await screenshot(page, 'design-comparison-validation');

    // The access modal: 'Need help?' asks the server and opens it at once.
    await main.getByRole('button', { name: 'Need help?' }).click();
    const dialog = page.getByRole('dialog', { name: 'Figma File Access Required' });
    await dialog.waitFor();
    await dialog.getByText("'Anyone with the link can view'").waitFor();
    await dialog.getByText("'Can view'").waitFor();
    await screenshot(page, 'design-comparison-modal');
    a11y.push(...(await axeFailures(page, 'modal')));
    await dialog.getByRole('button', { name: 'Got it!' }).click();
    await toast(page, 'Instructions sent! Please check your Figma file sharing settings.').waitFor();
    expect(await dialog.count()).toBe(0);

    // Upload Image: not an image, too large, then the design.
    await main.getByText('Upload Image', { exact: true }).click();
    await main.getByText('Supports PNG, JPG, GIF, WebP (max 10MB)').waitFor();
    const fileInput = main.getByLabel('Design image');
    await fileInput.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    await toast(page, 'Please select an image file').waitFor();
    await fileInput.setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(10 * 1024 * 1024 + 1),
    });
    await toast(page, 'File size must be less than 10MB').waitFor();
    expect(await main.getByTestId('uploaded-design').count()).toBe(0);

    await fileInput.setInputFiles({ name: 'landing-design.png', mimeType: 'image/png', buffer: design });
    await toast(page, 'Image uploaded successfully!').waitFor();
    expect(await main.getByTestId('uploaded-filename').textContent()).toBe('landing-design.png');
    await main.getByRole('img', { name: 'Uploaded design landing-design.png' }).waitFor();
    expect(await start.isDisabled()).toBe(true); // the website is still invalid
    await main.getByLabel('Website to Compare').fill(site.url);
    expect(await main.getByText('Please enter a valid website URL').count()).toBe(0);
    expect(await start.isDisabled()).toBe(false);
    await screenshot(page, 'design-comparison-ready');

    // ---- the comparison --------------------------------------------------------------------------
    await start.click();
    const similarity = main.getByTestId('overall-similarity');
    await similarity.waitFor({ timeout: 90_000 });
    const percent = Number((await similarity.textContent())?.replace('%', ''));
    expect(percent).toBeGreaterThan(0);
    expect(percent).toBeLessThanOrEqual(100);
    await toast(page, `Comparison completed! Similarity: ${percent}%`).waitFor();
    expect(await main.getByTestId('progress-message').textContent()).toBe('Comparison completed!');
    expect(await main.getByTestId('progress-percent').textContent()).toBe('100%');
    expect(
      await main.getByRole('progressbar', { name: 'Comparison progress' }).getAttribute('aria-valuenow'),
    ).toBe('100');
    expect(page.url()).toMatch(/[?&]session=/);

    // The quality badge's colour follows its rating (docs/PRODUCT.md#comparison-results).
    const badge = main.getByTestId('quality-badge');
    const rating = (await badge.textContent()) ?? '';
    const tones: Record<string, string> = { Excellent: 'green', Good: 'blue', Fair: 'yellow', Poor: 'red' };
    expect(Object.keys(tones)).toContain(rating);
    expect(await badge.getAttribute('data-tone')).toBe(tones[rating]);
    await main.getByRole('button', { name: 'New Comparison' }).waitFor();
    await screenshot(page, 'design-comparison-results');

    // The past comparisons list shows it: the site's host, the design's name, the score in the badge's colour.
    const pastItem = past.getByTestId('past-comparison-item');
    await pastItem.first().waitFor();
    expect(await pastItem.count()).toBe(1);
    expect(await pastItem.textContent()).toContain(new URL(site.url).host);
    expect(await pastItem.textContent()).toContain('landing-design.png');
    const pastScore = pastItem.getByTestId('past-comparison-score');
    expect(await pastScore.textContent()).toBe(`${percent}%`);
    expect(await pastScore.getAttribute('data-tone')).toBe(tones[rating]);
    await past.scrollIntoViewIfNeeded();
    await screenshot(page, 'design-comparison-past');

    // ---- the tabs --------------------------------------------------------------------------------
    const tabs = main.getByRole('tablist', { name: 'Comparison details' });
    await main.getByRole('button', { name: 'View Details' }).click();
    expect(await tabs.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected')).toBe('true');
    await main.getByTestId('viewport-analysis').first().waitFor();

    await tabs.getByRole('tab', { name: /^Issues/ }).click();
    const issues = main.getByTestId('issue-item');
    await issues.first().waitFor();
    const issueTexts = await issues.allTextContents();
    // Where the planted change is: the button of the clean page, laid out at the desktop width.
    const button = await page.evaluate((html) => {
      const frame = document.createElement('iframe');
      frame.style.cssText = 'position:absolute;left:-99999px;width:1920px;height:1080px;border:0';
      document.body.appendChild(frame);
      frame.contentDocument?.open();
      frame.contentDocument?.write(html);
      frame.contentDocument?.close();
      const r = frame.contentDocument?.querySelector('#cta')?.getBoundingClientRect();
      frame.remove();
      return r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
    }, landingPage('clean'));
    if (!button) throw new Error('no #cta in the fixture');
    // Some issue's box over the site's capture lies on the button.
    const pic = await main.getByRole('img', { name: 'Website capture, desktop' }).boundingBox();
    if (!pic) throw new Error('no site capture shown');
    const scale = pic.width / DESKTOP.width;
    const siteBoxes = main
      .getByTestId('visual-side-by-side')
      .locator('figure')
      .first()
      .getByTestId('issue-box');
    let onButton: string | null = null;
    for (const handle of await siteBoxes.all()) {
      const b = await handle.boundingBox();
      if (!b) continue;
      const cx = (b.x - pic.x + b.width / 2) / scale;
      const cy = (b.y - pic.y + b.height / 2) / scale;
      const inside =
        cx > button.x - 8 &&
        cx < button.x + button.width + 8 &&
        cy > button.y - 8 &&
        cy < button.y + button.height + 8;
      if (inside) onButton = await handle.getAttribute('data-issue-id');
    }
    expect(onButton).not.toBeNull();
    // Clicking that issue in the list selects its box, over the site and over the design.
    const item = main.locator(`[data-testid="issue-item"][data-issue-id="${onButton}"]`);
    await item.click();
    expect(await item.getAttribute('aria-pressed')).toBe('true');
    const boxes = main.locator(`[data-testid="issue-box"][data-issue-id="${onButton}"]`);
    expect(await boxes.count()).toBe(2);
    expect(await boxes.first().getAttribute('data-selected')).toBe('true');
    expect(await boxes.last().getAttribute('data-selected')).toBe('true');
    await screenshot(page, 'design-comparison-issues');

    // Overlay with its opacity slider.
    await main.getByText('Overlay', { exact: true }).click();
    await main.getByTestId('visual-overlay').waitFor();
    await main.getByLabel('Design opacity').fill('80');
    expect(await main.getByTestId('overlay-design').evaluate((el) => (el as HTMLElement).style.opacity)).toBe(
      '0.8',
    );
    await screenshot(page, 'design-comparison-overlay');

    await tabs.getByRole('tab', { name: /^Recommendations/ }).click();
    await main.getByTestId('recommendation').first().waitFor();

    await tabs.getByRole('tab', { name: /^CSS Fixes/ }).click();
    const fix = main.getByTestId('css-fix').first();
    await fix.waitFor();
    const code = (await fix.locator('pre').textContent()) ?? '';
    expect(code).toContain('{');
    await fix.getByRole('button', { name: /^Copy/ }).click();
    await toast(page, 'CSS copied to clipboard!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    await screenshot(page, 'design-comparison-css');
    a11y.push(...(await axeFailures(page, 'results')));

    // ---- export ----------------------------------------------------------------------------------
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      main.getByRole('button', { name: 'Export' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('comparison-results.json');
    const path = await download.path();
    const exported = JSON.parse(await readFile(path, 'utf8'));
    expect(Math.round(exported.overall_similarity)).toBe(percent);
    expect(exported.quality_rating).toBe(rating);
    expect(exported.specific_issues.length).toBe(issueTexts.length);
    expect(exported.css_fixes.some((f: { css_code: string }) => f.css_code === code)).toBe(true);
    expect(exported).not.toHaveProperty('viewport_images');
    await toast(page, 'Results exported successfully').waitFor();

    // ---- reopened with ?session= after a reload ----------------------------------------------------
    await page.reload();
    await main.getByTestId('overall-similarity').waitFor();
    expect(await main.getByTestId('overall-similarity').textContent()).toBe(`${percent}%`);
    expect(await main.getByTestId('quality-badge').textContent()).toBe(rating);
    expect(await main.getByLabel('Website to Compare').inputValue()).toBe(site.url);
    await main.getByRole('img', { name: 'Website capture, desktop' }).waitFor();
    // The uploaded design under its own name, size and thumbnail, as the server stored it.
    expect(await main.getByTestId('uploaded-filename').textContent()).toBe('landing-design.png');
    expect(await main.getByTestId('uploaded-details').textContent()).toMatch(
      new RegExp(`^${DESKTOP.width}×${DESKTOP.height} px · \\d+(\\.\\d)? [KM]B$`),
    );
    const thumbnail = main.getByRole('img', { name: 'Uploaded design landing-design.png' });
    expect(await thumbnail.getAttribute('src')).toContain('/thumbnail?');
    await page.waitForFunction(
      (img) => (img as HTMLImageElement | null)?.complete && (img as HTMLImageElement).naturalWidth > 0,
      await thumbnail.elementHandle(),
    );
    await main.getByTestId('uploaded-design').scrollIntoViewIfNeeded();
    await screenshot(page, 'design-comparison-reopened');
    // The same results on a phone-sized window.
    await page.setViewportSize({ width: 390, height: 844 });
    await main.getByTestId('comparison-summary').scrollIntoViewIfNeeded();
    await screenshot(page, 'design-comparison-narrow');
    await page.setViewportSize({ width: 1440, height: 1000 });

    // New Comparison clears the results; the past list opens the comparison again.
    await main.getByRole('button', { name: 'New Comparison' }).click();
    expect(await main.getByTestId('overall-similarity').count()).toBe(0);
    await pastItem.click();
    await main.getByTestId('overall-similarity').waitFor();
    expect(await main.getByTestId('overall-similarity').textContent()).toBe(`${percent}%`);
    expect(await main.getByTestId('quality-badge').textContent()).toBe(rating);
    expect(await main.getByTestId('uploaded-filename').textContent()).toBe('landing-design.png');
    expect(page.url()).toMatch(/[?&]session=/);

    // Start runs again with the same design and can be stopped.
    await main.getByRole('button', { name: 'New Comparison' }).click();
    expect(await main.getByTestId('overall-similarity').count()).toBe(0);
    await main.getByRole('button', { name: 'Start Comparison' }).click();
    await main.getByRole('button', { name: 'Stop Comparison' }).click();
    await toast(page, 'Comparison stopped').waitFor();
    expect(await main.getByTestId('progress-message').textContent()).toBe('Comparison stopped');
    await screenshot(page, 'design-comparison-stopped');

    expect(a11y).toEqual([]);
  });

  it('compares a Figma file with the website, and explains a file Figma refuses', async () => {
    const page = await newPage();
    await openScreen(page);
    const main = page.getByRole('main');
    const figmaUrl = `https://www.figma.com/design/${FILE_KEY}/Landing`;
    // Figma File is the method a new screen starts with.
    await main.getByLabel('Figma File URL').fill(figmaUrl);
    await main.getByLabel('Website to Compare').fill(site.url);
    const start = main.getByRole('button', { name: 'Start Comparison' });
    expect(await start.isDisabled()).toBe(false);
    await start.click();

    const similarity = main.getByTestId('overall-similarity');
    await similarity.waitFor({ timeout: 90_000 });
    const percent = Number((await similarity.textContent())?.replace('%', ''));
    expect(percent).toBeGreaterThan(0);
    expect(percent).toBeLessThanOrEqual(100);
    await toast(page, `Comparison completed! Similarity: ${percent}%`).waitFor();
    expect(figma.requests.some((r) => r.startsWith(`GET /v1/files/${FILE_KEY}`))).toBe(true);
    await screenshot(page, 'design-comparison-figma-results');

    // A fix read from the Figma file's styles: the nav link is 16 px in the design, 15 px on the page.
    const tabs = main.getByRole('tablist', { name: 'Comparison details' });
    await tabs.getByRole('tab', { name: /^CSS Fixes/ }).click();
    const fixes = main.getByTestId('css-fix');
    await fixes.first().waitFor();
    const fontFix = fixes.filter({ hasText: /font-size:\s*15px\s*→\s*16px/ }).first();
    await fontFix.waitFor();
    expect(await fontFix.locator('pre').textContent()).toMatch(/font-size:\s*16px/);
    await fontFix.scrollIntoViewIfNeeded();
    await screenshot(page, 'design-comparison-figma-css');
    await tabs.getByRole('tab', { name: /^Issues/ }).click();
    await main
      .getByTestId('issue-item')
      .filter({ hasText: /differs from Figma: font-size/ })
      .first()
      .waitFor();

    // Reopened after a reload: a Figma comparison, with its file's address.
    expect(page.url()).toMatch(/[?&]session=/);
    await page.reload();
    await main.getByTestId('overall-similarity').waitFor();
    expect(await main.getByTestId('overall-similarity').textContent()).toBe(`${percent}%`);
    expect(await main.getByLabel('Figma File URL').inputValue()).toBe(figmaUrl);

    // A file Figma answers 403: the toast, and the access modal opens by itself.
    await main.getByRole('button', { name: 'New Comparison' }).click();
    await main.getByLabel('Figma File URL').fill(`https://www.figma.com/file/${PRIVATE_KEY}/Private`);
    await main.getByRole('button', { name: 'Start Comparison' }).click();
    await toast(page, 'Figma file access required. Please share your file.').waitFor();
    const dialog = page.getByRole('dialog', { name: 'Figma File Access Required' });
    await dialog.waitFor();
    await dialog.getByText("'Anyone with the link can view'").waitFor();
    await screenshot(page, 'design-comparison-figma-modal');
    const a11y = await axeFailures(page, 'figma 403 modal');
    await dialog.getByRole('button', { name: 'Got it!' }).click();
    await toast(page, 'Instructions sent! Please check your Figma file sharing settings.').waitFor();
    expect(await dialog.count()).toBe(0);
    expect(await main.getByRole('button', { name: 'Start Comparison' }).isDisabled()).toBe(false);
    expect(a11y).toEqual([]);
  });
});
