import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, findChromium } from '@argus/engine';
import type { StoredTestResult } from '@argus/protocol';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';
import { storeCaseFile } from './case-file-store';

/** A shop of one page: a button that confirms an order. */
const SHOP = `<!doctype html><title>Shop</title>
<button id="buy" onclick="document.querySelector('#done').hidden = false">Place order</button>
<p id="done" hidden>Order confirmed</p>`;

describe("the trace viewer Argus serves (playwright-core's own)", () => {
  let server: InProcessServer;
  let shop: Server;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'argus-trace-'));
    shop = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(SHOP));
    await new Promise<void>((done) => shop.listen(0, '127.0.0.1', done));
    browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
    server = await startInProcess();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    shop?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A real trace of a case against the shop, as Playwright's tracing writes it. */
  const recordTrace = async (): Promise<Buffer> => {
    const context = await browser.newContext();
    await context.tracing.start({ screenshots: true, snapshots: true });
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${(shop.address() as AddressInfo).port}/`);
    await page.click('#buy');
    await page.waitForSelector('text=Order confirmed');
    const path = join(dir, 'trace.zip');
    await context.tracing.stop({ path });
    await context.close();
    return readFile(path);
  };

  it("opens a stored case's trace from its viewer link and lists the case's actions, offline", async () => {
    const api = client(server.url);
    const ada = await api.signUp('ada');
    const { repos } = server.app.services;
    const run = await repos.testRuns.create(ada.user.id, { url: 'http://shop.test/', status: 'completed' });
    await repos.testRuns.addResult(ada.user.id, run.id, {
      test_case_id: null,
      test_case_name: 'Checkout',
      status: 'failed',
      execution_time: 1,
      error_message: 'Expected text "Order shipped" to be visible',
      steps: [],
      logs: [],
      screenshots: [],
    });
    const trace = await recordTrace();
    const stored = await storeCaseFile(
      { ...server.app.services, log: server.app.log },
      ada.user.id,
      run.id,
      'Checkout',
      { kind: 'trace', attempt: 1, data: trace },
      { used: 0, limit: 1e9 },
    );
    expect(stored?.bytes).toBe(trace.length);

    const detail = await api.call('GET', `/api/automation/test-runs/${run.id}`, { token: ada.token });
    const [artifact] = (detail.data.test_results as StoredTestResult[])[0].artifacts;
    expect(artifact.viewer_url).toMatch(/\/trace-viewer\/index\.html\?trace=http%3A%2F%2F127\.0\.0\.1/);

    // A fresh context (no login), which may reach nothing but this server: the viewer needs no internet.
    const context = await browser.newContext();
    const outside: string[] = [];
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.origin === server.url) return route.continue();
      outside.push(url.href);
      return route.abort();
    });
    const page = await context.newPage();
    const viewer = await page.goto(artifact.viewer_url ?? '');
    expect(viewer?.status()).toBe(200);
    expect(viewer?.headers()['x-frame-options']).toBe('SAMEORIGIN');
    // Each action of the case, as the viewer lists them: its name, time and target.
    const actions = page.locator('.action-title');
    await expect
      .poll(() => actions.allInnerTexts(), { timeout: 30_000 })
      .toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^Navigate[\s\S]*127\.0\.0\.1/),
          expect.stringMatching(/^Click[\s\S]*#buy/),
        ]),
      );
    expect(outside).toEqual([]);
    await context.close();
  });
});
