import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BrowserServer, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from './browser-pool';
import { CHROMIUM_ARGS, findChromium } from './chromium';
import { BLOCKED_HEADER } from './policy-proxy';
import { TargetPolicy } from './target-policy';

let site: Server;
let port: number;
let pixelHits = 0;

beforeAll(async () => {
  site = createServer((req, res) => {
    const host = req.headers.host ?? '';
    if (req.url === '/redirect-private') {
      res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` }).end();
    } else if (req.url === '/with-image') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<h1>page</h1><img id="i" src="http://127.0.0.1:${port}/pixel.png">`);
    } else if (req.url === '/pixel.png') {
      pixelHits++;
      res.writeHead(200, { 'content-type': 'image/png' }).end();
    } else if (req.url === '/secret') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>internal secret</h1>');
    } else {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<title>Fixture</title><h1>Hello from ${host}</h1>`);
    }
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  port = (site.address() as AddressInfo).port;
});
afterAll(async () => {
  site.closeAllConnections();
  await new Promise((r) => site.close(r));
});

/** `allowed.test` stands for a public site: allowed by name, served from this machine. */
const resolve = async (host: string) => {
  if (host === 'allowed.test') return ['127.0.0.1'];
  throw new Error('ENOTFOUND');
};

describe('browser pool behind the target policy', () => {
  const pool = new BrowserPool({
    policy: new TargetPolicy({ allowedTargets: ['allowed.test'], resolve }),
    maxContexts: 2,
  });
  afterAll(() => pool.close());

  async function visit(url: string) {
    return pool.withContext(async (context) => {
      const page = await context.newPage();
      const response = await page.goto(url, { timeout: 15_000 });
      return {
        status: response?.status(),
        blocked: response?.headers()[BLOCKED_HEADER],
        text: (await page.locator('body').textContent()) ?? '',
        url: page.url(),
      };
    });
  }

  it('loads an allowed page through the proxy', async () => {
    const result = await visit(`http://allowed.test:${port}/`);
    expect(result.status).toBe(200);
    expect(result.text).toContain(`Hello from allowed.test:${port}`);
  });

  it('refuses a page on 127.0.0.1 that ALLOWED_TARGETS does not name, saying why', async () => {
    const result = await visit(`http://127.0.0.1:${port}/secret`);
    expect(result.status).toBe(403);
    expect(decodeURIComponent(result.blocked ?? '')).toBe(
      'Blocked by the target policy: 127.0.0.1 is a loopback address; add it to ALLOWED_TARGETS to test it',
    );
    expect(result.text).not.toContain('internal secret');
    expect(await pool.refusalFor('127.0.0.1')).toMatch(/loopback/);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', /link-local or cloud-metadata/],
    ['http://[::ffff:127.0.0.1]/', /loopback/],
    ['http://2130706433/', /loopback/],
  ])('refuses %s', async (url, reason) => {
    const result = await visit(url);
    expect(result.status).toBe(403);
    expect(decodeURIComponent(result.blocked ?? '')).toMatch(reason);
  });

  it('refuses an allowed page that redirects to a private address', async () => {
    const result = await visit(`http://allowed.test:${port}/redirect-private`);
    expect(result.status).toBe(403);
    expect(result.text).not.toContain('internal secret');
    expect(decodeURIComponent(result.blocked ?? '')).toMatch(/127\.0\.0\.1 is a loopback address/);
  });

  it('refuses subresources on private addresses: the private server never sees them', async () => {
    const outcome = await pool.withContext(async (context) => {
      const page = await context.newPage();
      const seen: string[] = [];
      page.on('response', (r) => {
        if (r.url().endsWith('/pixel.png')) seen.push(`status ${r.status()}`);
      });
      page.on('requestfailed', (r) => {
        if (r.url().endsWith('/pixel.png')) seen.push('failed');
      });
      await page.goto(`http://allowed.test:${port}/with-image`);
      await page.waitForLoadState('load');
      return seen;
    });
    expect(pixelHits).toBe(0);
    expect(outcome.length).toBeGreaterThan(0);
    expect(outcome.every((o) => o === 'status 403' || o === 'failed')).toBe(true);
  });

  it('runs at most maxContexts at once and queues the rest', async () => {
    let open = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 5 }, () =>
        pool.withContext(async (context) => {
          open++;
          peak = Math.max(peak, open);
          const page = await context.newPage();
          await page.goto(`http://allowed.test:${port}/`);
          open--;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(pool.stats()).toEqual({ active: 0, waiting: 0, max: 2 });
  });

  it('relaunches after the browser process dies', async () => {
    await visit(`http://allowed.test:${port}/`);
    const pid = await pool.browserPid();
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    const again = await visit(`http://allowed.test:${port}/`);
    expect(again.status).toBe(200);
    expect(await pool.browserPid()).not.toBe(pid);
  });
});

describe('the proxy of a local browser', () => {
  it('listens on loopback only, whatever proxyHost says (it asks for no credentials)', async () => {
    const pool = new BrowserPool({
      policy: new TargetPolicy({ allowedTargets: ['allowed.test'], resolve }),
      maxContexts: 1,
      proxyHost: '0.0.0.0',
      proxyPublicHost: '192.0.2.1',
    });
    try {
      const text = await pool.withContext(async (context) => {
        const page = await context.newPage();
        await page.goto(`http://allowed.test:${port}/`, { timeout: 15_000 });
        return page.locator('h1').textContent();
      });
      expect(text).toBe(`Hello from allowed.test:${port}`);
      expect(new URL((await pool.proxyUrl()) ?? '').hostname).toBe('127.0.0.1');
    } finally {
      await pool.close();
    }
  });
});

describe('closing the pool', () => {
  it('leaves no browser process behind and rejects callers still in line', async () => {
    const pool = new BrowserPool({
      policy: new TargetPolicy({ allowedTargets: ['allowed.test'], resolve }),
      maxContexts: 1,
    });
    let release!: () => void;
    const holding = pool.withContext(() => new Promise<void>((r) => (release = r)));
    const queued = pool.withContext(async () => 'never').catch((error: Error) => error);
    await new Promise((r) => setTimeout(r, 500));
    const pid = await pool.browserPid();
    const proxyUrl = await pool.proxyUrl();
    expect(pid).toBeGreaterThan(0);
    await pool.close();
    release();
    await holding.catch(() => {});
    expect(String(await queued)).toMatch(/The browser pool closed/);
    const alive = (() => {
      try {
        process.kill(pid!, 0);
        return true;
      } catch {
        return false;
      }
    })();
    expect(alive).toBe(false);
    // Nothing else launched for this pool survives either (every Chromium it started carries its proxy).
    const { readdirSync, readFileSync } = await import('node:fs');
    const survivors = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(proxyUrl!);
        } catch {
          return false;
        }
      });
    expect(survivors).toEqual([]);
  });
});

describe('a remote browser (BROWSER_WS_ENDPOINT): the policy by request routing', () => {
  let server: BrowserServer;
  beforeAll(async () => {
    server = await chromium.launchServer({
      executablePath: findChromium(),
      args: CHROMIUM_ARGS,
      host: '127.0.0.1',
    });
  });
  afterAll(() => server?.close());

  async function visitRemote(allowedTargets: string[], url: string) {
    const pool = new BrowserPool({
      policy: new TargetPolicy({ allowedTargets }),
      maxContexts: 1,
      wsEndpoint: server.wsEndpoint(),
    });
    try {
      return await pool.withContext(async (context) => {
        const page = await context.newPage();
        const response = await page.goto(url, { timeout: 15_000 }).catch((error: Error) => error);
        if (response instanceof Error) return { error: response.message.split('\n')[0] };
        return { status: response?.status(), text: await page.locator('body').textContent() };
      });
    } finally {
      await pool.close();
    }
  }

  it('refuses private addresses the policy does not allow, and loads those it allows', async () => {
    expect((await visitRemote([], `http://127.0.0.1:${port}/secret`)).error).toMatch(/ERR_BLOCKED_BY_CLIENT/);
    expect((await visitRemote([], 'http://169.254.169.254/latest/meta-data/')).error).toMatch(
      /ERR_BLOCKED_BY_CLIENT/,
    );
    expect(await visitRemote(['127.0.0.1'], `http://127.0.0.1:${port}/secret`)).toMatchObject({
      status: 200,
      text: 'internal secret',
    });
  });

  it('refuses private subresources: the private server never sees them', async () => {
    const before = pixelHits;
    const pool = new BrowserPool({
      policy: new TargetPolicy({ allowedTargets: [] }),
      maxContexts: 1,
      wsEndpoint: server.wsEndpoint(),
    });
    try {
      await pool.withContext(async (context) => {
        const page = await context.newPage();
        await page.setContent(`<img id="i" src="http://127.0.0.1:${port}/pixel.png">`);
        const loaded = await page
          .locator('#i')
          .evaluate((img: HTMLImageElement) =>
            img.complete ? img.naturalWidth > 0 : new Promise((r) => (img.onerror = () => r(false))),
          );
        expect(loaded).toBe(false);
      });
    } finally {
      await pool.close();
    }
    expect(pixelHits).toBe(before);
  });
});
