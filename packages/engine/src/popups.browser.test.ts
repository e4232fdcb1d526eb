import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BrowserContext, type BrowserServer, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from './browser-pool';
import { CHROMIUM_ARGS, findChromium, MAX_POPUPS_PER_CONTEXT } from './chromium';
import { TargetPolicy } from './target-policy';

/**
 * One browser serves every user, so a page under test that opens windows by the hundred must not keep
 * them: at most the session's own page and MAX_POPUPS_PER_CONTEXT popups stay open per context. The
 * popups go to another site (popups.test), so each would otherwise hold a renderer of its own.
 */

let site: Server;
let port: number;
const OPEN_ALL = `const opened = []; const n = Number(new URLSearchParams(location.search).get('n'));
  for (let i = 0; i < n; i++) opened.push(window.open('http://popups.test:PORT/popup?' + i, '_blank'));
  document.title = 'opened ' + opened.filter(Boolean).length;`;
const PAGES: Record<string, string> = {
  '/on-load': `<title>loading</title><script>${OPEN_ALL}</script>`,
  '/on-click': `<title>ready</title><button onclick="${OPEN_ALL.replaceAll("'", '&apos;')}">Open</button>`,
  '/link': `<title>Link</title><a href="http://popups.test:PORT/popup?tab" target="_blank">Terms</a>`,
  // Windows that do not go through window.open: links with a new-tab target, clicked by the script.
  '/links': `<title>loading</title><script>const n = Number(new URLSearchParams(location.search).get('n'));
    for (let i = 0; i < n; i++) {
      const a = document.createElement('a');
      a.href = 'http://popups.test:PORT/popup?' + i; a.target = '_blank'; document.documentElement.append(a); a.click();
    }
    document.title = 'opened ' + n;</script>`,
  '/popup': '<title>Popup</title><h1>A popup</h1>',
};

beforeAll(async () => {
  site = createServer((req, res) => {
    const page = PAGES[new URL(req.url ?? '/', 'http://x').pathname];
    res
      .writeHead(page ? 200 : 404, { 'content-type': 'text/html' })
      .end((page ?? 'Not found').replaceAll('PORT', String(port)));
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  port = (site.address() as AddressInfo).port;
});
afterAll(async () => {
  site.closeAllConnections();
  await new Promise((r) => site.close(r));
});

const policy = () =>
  new TargetPolicy({
    allowedTargets: ['shop.test', 'popups.test'],
    resolve: async (host) => {
      if (host === 'shop.test' || host === 'popups.test') return ['127.0.0.1'];
      throw new Error('ENOTFOUND');
    },
  });

/** Renderer processes of the context's browser (Chromium keeps one spare besides those in use). */
async function renderers(context: BrowserContext): Promise<number> {
  const browser = context.browser();
  if (!browser) throw new Error('no browser');
  const cdp = await browser.newBrowserCDPSession();
  try {
    const info = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string }[] };
    return info.processInfo.filter((p) => p.type === 'renderer').length;
  } finally {
    await cdp.detach();
  }
}

/** Opens `path` in a new page of the context and answers the popups the page saw appear. */
async function openPopups(context: BrowserContext, path: string, click: boolean) {
  let appeared = 0;
  context.on('page', () => appeared++);
  const page = await context.newPage();
  appeared = 0;
  // Not waiting for 'load': a page opening 200 windows as it loads takes long to finish loading.
  await page.goto(`http://shop.test:${port}${path}`, { waitUntil: 'commit' });
  if (click) await page.getByRole('button', { name: 'Open' }).click();
  await expect.poll(() => page.title(), { timeout: 30_000 }).toMatch(/^opened \d+$/);

  return { page, appeared: () => appeared };
}

let remote: BrowserServer | undefined;
beforeAll(async () => {
  // A remote browser runs with Playwright's defaults: its popup blocker is off, every window opens.
  remote = await chromium.launchServer({
    executablePath: findChromium(),
    args: CHROMIUM_ARGS,
    host: '127.0.0.1',
  });
});
afterAll(() => remote?.close());

const ALLOWED_PAGES = 1 + MAX_POPUPS_PER_CONTEXT;

describe('popups of a page under test', () => {
  it('a remote browser (no popup blocker): a script opens no window; of 20 new-tab links it clicks, at most the allowance stay open', async () => {
    const pool = new BrowserPool({ policy: policy(), maxContexts: 1, wsEndpoint: remote?.wsEndpoint() });
    try {
      await pool.withContext(async (context) => {
        const onLoad = await openPopups(context, '/on-load?n=20', false);
        expect(await onLoad.page.title()).toBe('opened 0');
        expect(context.pages()).toEqual([onLoad.page]);
        await onLoad.page.close();
        // 20, not 200: Playwright sets up every popup before it can be closed (≈ 0.2 s each here).
        const { page, appeared } = await openPopups(context, '/links?n=20', false);
        await expect.poll(appeared, { timeout: 30_000 }).toBe(20);
        await expect
          .poll(() => context.pages().length, { timeout: 30_000 })
          .toBeLessThanOrEqual(ALLOWED_PAGES);
        expect(context.pages()[0]).toBe(page);
        // The pages that stay, and Chromium's spare renderer.
        await expect
          .poll(() => renderers(context), { timeout: 30_000 })
          .toBeLessThanOrEqual(ALLOWED_PAGES + 1);
      });
    } finally {
      await pool.close();
    }
  });

  it("the local browser opens none of 200 windows a script asks for without a click, one of 200 on a click, and a link's new tab", async () => {
    const pool = new BrowserPool({ policy: policy(), maxContexts: 1 });
    try {
      await pool.withContext(async (context) => {
        const onLoad = await openPopups(context, '/on-load?n=200', false);
        expect(await onLoad.page.title()).toBe('opened 0');
        expect(context.pages()).toEqual([onLoad.page]);
        await onLoad.page.close();
        const onClick = await openPopups(context, '/on-click?n=200', true);
        expect(await onClick.page.title()).toBe('opened 1');
        await expect.poll(() => context.pages().length).toBe(2);
        expect(await renderers(context)).toBeLessThanOrEqual(ALLOWED_PAGES + 1);
        // A test that follows a link opening a new tab keeps working.
        const link = await context.newPage();
        await link.goto(`http://shop.test:${port}/link`);
        const [tab] = await Promise.all([context.waitForEvent('page'), link.getByText('Terms').click()]);
        await tab.waitForLoadState();
        expect(await tab.title()).toBe('Popup');
      });
    } finally {
      await pool.close();
    }
  });
});
