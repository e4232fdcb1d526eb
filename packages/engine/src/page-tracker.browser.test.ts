import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TestCase, TestCaseSchema } from '@argus/protocol';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from './browser-pool';
import { CHROMIUM_ARGS, findFullChromium } from './chromium';
import { PageTracker } from './page-tracker';
import { TargetPolicy } from './target-policy';
import { runTestCase } from './test-runner';

/**
 * A site without a favicon (every unknown path answers 404): the browser's own request for
 * /favicon.ico, and anything else a visitor never sees, must not fail the page-health checks. The full
 * Chromium (CHROMIUM_PATH may name one, and remote browsers usually are one) asks for the favicon; the
 * headless shell the engine prefers does not, so these checks run in the full browser.
 */
const PAGES: Record<string, string> = {
  '/plain.html': '<!doctype html><title>Plain</title><h1>No favicon here</h1>',
  '/broken-image.html':
    '<!doctype html><title>Image</title><h1>Team</h1><img src="/images/gone.png" alt="Gone">',
  '/failing-fetch.html':
    '<!doctype html><title>Fetch</title><h1>Data</h1><script>fetch("/api/missing").catch(() => {})</script>',
  '/linked-icon.html':
    '<!doctype html><title>Icon</title><link rel="icon" href="/apple-touch-icon.png"><h1>Linked icon</h1>',
  // As developer tools would ask for the script's source map.
  '/source-map.html':
    '<!doctype html><title>Map</title><h1>Map</h1><script src="/app.js"></script><script>fetch("/app.js.map").catch(() => {})</script>',
};

let servers: Server[] = [];
let base: string;
/** A second origin: the browser remembers a favicon that failed, per URL. */
let otherBase: string;
const pool = new BrowserPool({
  policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }),
  maxContexts: 2,
  chromiumPath: findFullChromium(),
});
const testCase = (steps: string[]): TestCase => TestCaseSchema.parse({ test_name: 'health', steps });

async function startSite(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end('document.title = "Map";\n//# sourceMappingURL=app.js.map\n');
      return;
    }
    const body = PAGES[path];
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html' });
    res.end(body ?? 'Not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  const [one, two] = await Promise.all([startSite(), startSite()]);
  servers = [one.server, two.server];
  base = one.url;
  otherBase = two.url;
});
afterAll(async () => {
  await pool.close();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** The two page-health checks, after a pause long enough for the browser's favicon request to end. */
const healthChecks = (path: string) => [
  `Navigate to ${base}${path}`,
  'Wait 1500 ms',
  'Verify page has no failed requests',
  'Verify page has no console errors',
];

describe('page-health checks ignore what a visitor never sees', () => {
  it('passes both checks on a page without a favicon, and says so once in the log as a warning', async () => {
    const outcome = await runTestCase(pool, testCase(healthChecks('/plain.html')), { baseUrl: base });
    expect(outcome.error).toBeNull();
    expect(outcome.status).toBe('passed');
    expect(outcome.steps.map((s) => s.status)).toEqual(['success', 'success', 'success', 'success']);
    const warnings = outcome.logs.filter((l) => l.level === 'warn').map((l) => l.message);
    expect(warnings).toEqual([expect.stringMatching(/^Not counted as a failure .*\/favicon\.ico/)]);
    expect(warnings[0]).toContain(`${base}/favicon.ico`);
  });

  it('says nothing of it in a test that checks neither', async () => {
    const outcome = await runTestCase(
      pool,
      testCase([
        `Navigate to ${otherBase}/plain.html`,
        'Wait 1500 ms',
        'Verify text "No favicon here" is visible',
      ]),
      { baseUrl: otherBase },
    );
    expect(outcome.status).toBe('passed');
    expect(outcome.logs.filter((l) => l.level === 'warn')).toEqual([]);
  });

  it('still fails on a broken <img> the page shows', async () => {
    const requests = await runTestCase(pool, testCase(healthChecks('/broken-image.html').slice(0, 3)), {
      baseUrl: base,
    });
    expect(requests.status).toBe('failed');
    expect(requests.error).toMatch(/Failed request: GET .*\/images\/gone\.png answered 404/);
    const consoleErrors = await runTestCase(
      pool,
      testCase([...healthChecks('/broken-image.html').slice(0, 2), 'Verify page has no console errors']),
      { baseUrl: base },
    );
    expect(consoleErrors.status).toBe('failed');
    expect(consoleErrors.error).toMatch(/Console error on .*broken-image\.html: Failed to load resource/);
    // The favicon is still only a warning, beside the real failure.
    expect(consoleErrors.error).not.toContain('favicon');
  });

  it('still fails on a fetch of the page that answers 404', async () => {
    const outcome = await runTestCase(pool, testCase(healthChecks('/failing-fetch.html')), {
      baseUrl: base,
    });
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/Failed request: GET .*\/api\/missing answered 404/);
  });
});

describe('PageTracker', () => {
  it('keeps the browser-own favicon request and source maps apart, but counts an icon the page links', async () => {
    const browser = await chromium.launch({
      executablePath: findFullChromium(),
      headless: true,
      args: CHROMIUM_ARGS,
    });
    try {
      const visit = async (path: string) => {
        const context = await browser.newContext();
        const page = await context.newPage();
        const tracker = new PageTracker(page);
        await page.goto(`${base}${path}`, { waitUntil: 'load' });
        await page.waitForTimeout(1500);
        const found = {
          console: tracker.consoleErrors().map((p) => p.message),
          requests: tracker.failedRequests().map((p) => p.message),
          ignored: tracker.ignoredFindings().map((p) => p.resource),
        };
        await context.close();
        return found;
      };

      const plain = await visit('/plain.html');
      expect(plain).toEqual({ console: [], requests: [], ignored: [`${base}/favicon.ico`] });

      // Linked by the page, a missing icon is the page's own defect, even under a name the browser
      // would also try by itself. (A new name: the browser remembers a favicon that failed.)
      const linked = await visit('/linked-icon.html');
      expect(linked.ignored).toEqual([]);
      expect(linked.console).toEqual([expect.stringMatching(/^Failed to load resource/)]);

      // A source map is for developer tools: its failure, and the console's word on it, are set apart.
      const mapped = await visit('/source-map.html');
      expect(mapped.console).toEqual([]);
      expect(mapped.requests).toEqual([]);
      expect(mapped.ignored).toEqual(expect.arrayContaining([`${base}/app.js.map`]));
    } finally {
      await browser.close();
    }
  });
});
