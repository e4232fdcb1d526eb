import { existsSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TestCase, URL_SCHEME_REFUSED } from '@argus/protocol';
import { type BrowserServer, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from './browser-pool';
import { CHROMIUM_ARGS, findChromium, findFullChromium } from './chromium';
import { TargetPolicy } from './target-policy';
import { runTestCase } from './test-runner';

/**
 * The same attacks against the local browser (launched behind the policy proxy) and a remote one
 * (`chromium.launchServer()`, reached like BROWSER_WS_ENDPOINT): a user's steps, case URLs and run
 * URLs naming what is not a web page, a redirect and a WebSocket to an address the policy refuses.
 */

let site: Server;
let sitePort: number;
let canary: Server;
let canaryPort: number;
const canaryHits: string[] = [];

beforeAll(async () => {
  canary = createServer((req, res) => {
    canaryHits.push(`http ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>canary secret</h1>');
  });
  canary.on('upgrade', (req, socket) => {
    canaryHits.push(`websocket ${req.url}`);
    socket.destroy();
  });
  // 127.0.0.2: loopback like the site, but not what ALLOWED_TARGETS names.
  await new Promise<void>((r) => canary.listen(0, '127.0.0.2', r));
  canaryPort = (canary.address() as AddressInfo).port;

  site = createServer((req, res) => {
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (req.url === '/redirect')
      res.writeHead(302, { location: `http://127.0.0.2:${canaryPort}/redirected` }).end();
    else if (req.url === '/websocket')
      html(`<title>ws</title><script>
        const ws = new WebSocket('ws://127.0.0.2:${canaryPort}/socket');
        ws.onopen = () => (document.title = 'opened');
        ws.onerror = () => (document.title = 'refused');
      </script>`);
    else if (req.url === '/script-to-file')
      html(`<button onclick="location.href='file:///etc/hostname'">Go</button>`);
    else if (req.url === '/script-to-blob')
      // The one scheme besides http(s) a page may send itself to: a blob: URL of its own making.
      html(`<title>Blob</title><button onclick="location.href = window.URL.createObjectURL(new Blob(
        ['<body style=&quot;margin:0;background:rgb(255,0,0)&quot;><h1>forbidden page</h1>'],
        { type: 'text/html' }))">Go</button>`);
    else if (req.url === '/spoof')
      // A site posing as the proxy, to fail its own test with a text of its choosing.
      res
        .writeHead(200, {
          'content-type': 'text/html',
          'x-argus-blocked': encodeURIComponent('Blocked by the target policy: spoofed'),
        })
        .end('<title>Spoof</title><h1>A page</h1>');
    else html('<title>Shop</title><h1>Welcome to the shop</h1><a href="file:///etc/hostname">Local file</a>');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  sitePort = (site.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const server of [site, canary]) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

/** `shop.test` stands for a public site: allowed by name, served from this machine. */
const resolve = async (host: string) => {
  if (host === 'shop.test') return ['127.0.0.1'];
  throw new Error('ENOTFOUND');
};
const policy = () => new TargetPolicy({ allowedTargets: ['shop.test'], resolve });
const shop = () => `http://shop.test:${sitePort}`;
const testCase = (steps: string[], url?: string): TestCase =>
  // Built by hand: the protocol's schema would refuse these URLs before the engine ever saw them, and
  // the engine must refuse them on its own (a model or a chat will hand it URLs too).
  ({
    test_name: 'attack',
    test_type: 'functional',
    description: '',
    priority: 'High',
    expected_result: '',
    steps,
    url,
  }) as unknown as TestCase;

/**
 * The share of a JPEG's pixels that are pure-ish red (the colour of the forbidden blob page), read in
 * a page of the pool's own browser (no image library in this repository).
 */
async function redShare(pool: BrowserPool, jpeg: Buffer): Promise<number> {
  return pool.withContext(async (context) => {
    const page = await context.newPage();
    return page.evaluate(
      async (src) => {
        const img = new Image();
        img.src = src;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        const g = canvas.getContext('2d')!;
        g.drawImage(img, 0, 0);
        const { data } = g.getImageData(0, 0, canvas.width, canvas.height);
        let red = 0;
        for (let i = 0; i < data.length; i += 4)
          if (data[i] > 200 && data[i + 1] < 60 && data[i + 2] < 60) red++;
        return red / (data.length / 4);
      },
      `data:image/jpeg;base64,${jpeg.toString('base64')}`,
    );
  });
}

/** Every screenshot an outcome holds belongs to a step that ended on a web page or on about:blank. */
function photographedOnlyWebPages(outcome: Awaited<ReturnType<typeof runTestCase>>): void {
  for (const shot of outcome.screenshots) {
    const url = outcome.steps[shot.step_index]?.url ?? '';
    expect(url === 'about:blank' || /^https?:\/\//.test(url), `screenshot of ${url}`).toBe(true);
  }
}

const FORBIDDEN = [
  'file:///etc/hostname',
  'file:///',
  'FILE:///etc/passwd',
  'chrome://version',
  'chrome-extension://abcdefghijklmnop/page.html',
  'view-source:http://shop.test/',
  'devtools://devtools/bundled/inspector.html',
  'data:text/html,<h1>forged</h1>',
  'javascript:document.title="x"',
  'about:config',
];

let remote: BrowserServer | undefined;
beforeAll(async () => {
  remote = await chromium.launchServer({
    executablePath: findChromium(),
    args: CHROMIUM_ARGS,
    host: '127.0.0.1',
  });
});
afterAll(() => remote?.close());

describe.each([
  ['local browser', () => new BrowserPool({ policy: policy(), maxContexts: 2 })],
  [
    'remote browser',
    () => new BrowserPool({ policy: policy(), maxContexts: 2, wsEndpoint: remote?.wsEndpoint() }),
  ],
])('the target policy against a hostile user and a hostile site (%s)', (_mode, makePool) => {
  let pool: BrowserPool;
  beforeAll(() => {
    pool = makePool();
  });
  afterAll(() => pool.close());

  it.each(FORBIDDEN)(
    'fails a Navigate step to %s with the policy message and photographs nothing there',
    async (target) => {
      const outcome = await runTestCase(pool, testCase([`Navigate to ${shop()}/`, `Navigate to ${target}`]), {
        baseUrl: shop(),
      });
      expect(outcome.status).toBe('failed');
      expect(outcome.error).toBe(URL_SCHEME_REFUSED);
      expect(outcome.steps.map((s) => s.status)).toEqual(['success', 'error']);
      // The failed step's screenshot, if any, is of the shop page it never left.
      expect(outcome.steps[1].url).toBe(`${shop()}/`);
      photographedOnlyWebPages(outcome);
    },
  );

  it.each(FORBIDDEN)('fails a case whose own url, or the run url it falls back on, is %s', async (url) => {
    const viaCase = await runTestCase(pool, testCase(['Verify text "root" is visible'], url), {
      baseUrl: shop(),
    });
    expect(viaCase.error).toBe(URL_SCHEME_REFUSED);
    // The only page ever shown is the blank one the context starts on.
    expect(viaCase.steps.map((s) => s.url)).toEqual(['about:blank']);
    photographedOnlyWebPages(viaCase);
    const viaRun = await runTestCase(pool, testCase(['Verify text "root" is visible']), { baseUrl: url });
    expect(viaRun.error).toBe(URL_SCHEME_REFUSED);
    expect(viaRun.steps.map((s) => s.url)).toEqual(['about:blank']);
    photographedOnlyWebPages(viaRun);
  });

  it('its browser itself refuses local files and browser pages asked for directly, past the engine', async () => {
    await pool.withContext(async (context) => {
      for (const url of [
        'file:///etc/hostname',
        'FILE:///etc/passwd',
        'chrome://version',
        'chrome-extension://abcdefghijklmnop/page.html',
        'devtools://devtools/bundled/inspector.html',
      ]) {
        const page = await context.newPage();
        const shown: string[] = [];
        page.on('framenavigated', (frame) => shown.push(frame.url()));
        const error = await page.goto(url, { timeout: 10_000 }).then(
          () => null,
          (e: Error) => e.message,
        );
        // The headless shell has no browser pages (ERR_INVALID_URL, ERR_ABORTED); local files are
        // refused by the engine's CDP block (BLOCKED_BY_CLIENT) or Chromium's managed block list.
        expect(error, url).toMatch(/ERR_(BLOCKED_BY_CLIENT|BLOCKED_BY_ADMINISTRATOR|INVALID_URL|ABORTED)/);
        if (url.toLowerCase().startsWith('file:')) expect(error).toMatch(/ERR_BLOCKED_BY_/);
        // Nothing of the address was ever shown: at most Chromium's error page.
        expect(
          shown.filter((shownUrl) => !shownUrl.startsWith('chrome-error:')),
          url,
        ).toEqual([]);
        await page.close();
      }
    });
  });

  it('refuses a relative target that resolves to another scheme', async () => {
    const outcome = await runTestCase(
      pool,
      testCase([`Navigate to ${shop()}/`, 'Navigate to file:etc/hostname']),
      {
        baseUrl: shop(),
      },
    );
    expect(outcome.error).toBe(URL_SCHEME_REFUSED);
  });

  it('never reaches a refused address through a redirect from an allowed page', async () => {
    const before = canaryHits.length;
    const outcome = await runTestCase(pool, testCase([`Navigate to ${shop()}/redirect`]), {
      baseUrl: shop(),
    });
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/^Blocked by the target policy: 127\.0\.0\.2/);
    expect(canaryHits.slice(before)).toEqual([]);
  });

  it('never opens a page WebSocket to a refused address', async () => {
    const before = canaryHits.length;
    const outcome = await runTestCase(
      pool,
      testCase([`Navigate to ${shop()}/websocket`, 'Wait 1000 ms', 'Verify the title contains "refused"']),
      { baseUrl: shop() },
    );
    expect(outcome.error).toBeNull();
    expect(canaryHits.slice(before)).toEqual([]);
  });

  it('leaves a page that a link or a script sends to a local file, without a photograph of it', async () => {
    for (const steps of [['Click link "Local file"'], ['Navigate to /script-to-file', 'Click button "Go"']]) {
      const outcome = await runTestCase(pool, testCase([`Navigate to ${shop()}/`, ...steps, 'Wait 300 ms']), {
        baseUrl: shop(),
      });
      // Chromium itself refuses file: from a web page; whatever happens, no step ends on a local file.
      expect(outcome.steps.length).toBe(steps.length + 2);
      expect(outcome.steps.map((s) => s.url).filter((url) => !url?.startsWith('http'))).toEqual([]);
      photographedOnlyWebPages(outcome);
    }
  });

  it('sends a page that leaves the web by itself to about:blank before its screenshot, and fails the step', async () => {
    const outcome = await runTestCase(
      pool,
      testCase([`Navigate to ${shop()}/script-to-blob`, 'Click button "Go"', 'Wait 500 ms', 'Wait 100 ms']),
      { baseUrl: shop() },
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBe(URL_SCHEME_REFUSED);
    const failed = outcome.steps.find((s) => s.status === 'error');
    expect(failed?.url).toBe('about:blank');
    expect(outcome.steps.some((s) => s.url?.startsWith('blob:'))).toBe(false);
    photographedOnlyWebPages(outcome);
    // And not one photograph shows the red page that was there.
    expect(outcome.screenshots.length).toBeGreaterThan(0);
    for (const shot of outcome.screenshots) expect(await redShare(pool, shot.data)).toBeLessThan(0.01);
  });

  it("does not let a site pose as the proxy: its own refusal header is not the policy's", async () => {
    const outcome = await runTestCase(
      pool,
      testCase([`Navigate to ${shop()}/spoof`, 'Verify the title contains "Spoof"']),
      { baseUrl: shop() },
    );
    expect(outcome.error).toBeNull();
  });
});

describe("a remote browser server that turns Playwright's forced loopback proxying off", () => {
  // PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK is read by the Playwright server next to the
  // remote browser, an environment Argus does not control: there a context proxy with an empty bypass
  // list lets loopback addresses go around the proxy. The pool names `<-loopback>` itself.
  const name = 'PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK';
  const saved = process.env[name];
  let pool: BrowserPool;
  beforeAll(() => {
    process.env[name] = '1';
    pool = new BrowserPool({ policy: policy(), maxContexts: 1, wsEndpoint: remote?.wsEndpoint() });
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env[name];
    else process.env[name] = saved;
    await pool.close();
  });

  it('still sends redirects and WebSockets to loopback addresses through the proxy', async () => {
    const before = canaryHits.length;
    const redirected = await runTestCase(pool, testCase([`Navigate to ${shop()}/redirect`]), {
      baseUrl: shop(),
    });
    expect(redirected.error).toMatch(/^Blocked by the target policy: 127\.0\.0\.2/);
    const socket = await runTestCase(
      pool,
      testCase([`Navigate to ${shop()}/websocket`, 'Wait 1000 ms', 'Verify the title contains "refused"']),
      { baseUrl: shop() },
    );
    expect(socket.error).toBeNull();
    expect(canaryHits.slice(before)).toEqual([]);
  });
});

describe('the policy proxy a remote browser goes through', () => {
  it('asks for credentials: a request or tunnel without them gets 407 and reaches nothing', async () => {
    const pool = new BrowserPool({ policy: policy(), maxContexts: 1, wsEndpoint: remote?.wsEndpoint() });
    try {
      await pool.withContext(async (context) => {
        const page = await context.newPage();
        await page.goto(`${shop()}/`);
        await expect(page.locator('h1').textContent()).resolves.toBe('Welcome to the shop');
      });
      const proxy = new URL((await pool.proxyUrl()) ?? '');
      const ask = (method: string, path: string) =>
        new Promise<number>((done, fail) => {
          const req = request({ host: proxy.hostname, port: proxy.port, method, path });
          req.on('response', (res) => done(res.statusCode ?? 0));
          req.on('connect', (res) => done(res.statusCode ?? 0));
          req.on('error', fail);
          req.end();
        });
      const before = canaryHits.length;
      expect(await ask('GET', `http://127.0.0.2:${canaryPort}/`)).toBe(407);
      expect(await ask('GET', `${shop()}/`)).toBe(407);
      expect(await ask('CONNECT', `shop.test:${sitePort}`)).toBe(407);
      expect(canaryHits.slice(before)).toEqual([]);
    } finally {
      await pool.close();
    }
  });
});

// The full browser reads it (CHROMIUM_PATH may name one); the headless shell reads no policy files.
describe("Chromium's own URL block list (scripts/setup.mjs writes it)", () => {
  const policyFile = '/etc/chromium/policies/managed/argus-url-blocklist.json';
  const fullChromium = () =>
    new BrowserPool({ policy: policy(), maxContexts: 1, chromiumPath: findFullChromium() });
  it.skipIf(!existsSync(policyFile))(
    'refuses local files and browser pages even when asked directly, past the engine',
    async () => {
      const pool = fullChromium();
      try {
        await pool.withContext(async (context) => {
          for (const url of ['file:///etc/hostname', 'chrome://version', 'view-source:http://shop.test/']) {
            const page = await context.newPage();
            const error = await page.goto(url).then(
              () => null,
              (e: Error) => e.message,
            );
            expect(error).toMatch(/ERR_BLOCKED_BY_ADMINISTRATOR/);
          }
        });
      } finally {
        await pool.close();
      }
    },
  );

  it.skipIf(!existsSync(policyFile))(
    'leaves Playwright working: new pages, about:blank, screenshots and a screencast',
    async () => {
      const pool = fullChromium();
      try {
        await pool.withContext(async (context) => {
          const page = await context.newPage();
          expect(page.url()).toBe('about:blank');
          await page.goto('about:blank');
          await page.goto(`${shop()}/`);
          await expect(page.locator('h1').textContent()).resolves.toBe('Welcome to the shop');
          expect((await page.screenshot({ type: 'jpeg' })).length).toBeGreaterThan(1000);
          const cdp = await context.newCDPSession(page);
          let frames = 0;
          cdp.on('Page.screencastFrame', (frame) => {
            frames++;
            void cdp.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => {});
          });
          await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 60 });
          await page.evaluate(() => {
            document.body.style.background = 'rgb(0, 0, 255)';
          });
          await expect.poll(() => frames, { timeout: 5_000 }).toBeGreaterThan(0);
          await cdp.send('Page.stopScreencast');
          // A blocked page is an error page in the same tab, not a closed one.
          await page.goto('chrome://version').catch(() => {});
          await page.waitForURL(/^chrome-error:/, { timeout: 5_000 });
          expect(page.isClosed()).toBe(false);
          await page.goto(`${shop()}/`);
          expect(await page.title()).toBe('Shop');
          const popup = await context.newPage();
          expect(popup.url()).toBe('about:blank');
        });
      } finally {
        await pool.close();
      }
    },
  );
});
