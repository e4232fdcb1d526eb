import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { openSocket, type TestSocket } from '../apps/server/src/testing/ws-client';
import { type FixtureSite, serveFixtureSite } from '../fixtures/site/serve';
import { PageOpener, pageToken, registerAccount, signIn } from './support/app';
import { launchBrowser } from './support/browser';

/**
 * A server with one browser for everyone: while another user's live browser holds it, the
 * conversational screen says its place in line instead of loading silently, and starts once the
 * browser frees (docs/ARCHITECTURE.md, threat model: starving the others by arriving together).
 */

let server: RunningServer;
let site: FixtureSite;
let browser: Browser;
const pages = new PageOpener(() => browser);
const sockets: TestSocket[] = [];

beforeAll(async () => {
  [server, site, browser] = await Promise.all([
    // One browser context in all; two live browsers allowed, so the second waits instead of being refused.
    spawnServer({ ALLOWED_TARGETS: '127.0.0.1', MAX_BROWSERS: '1', MAX_LIVE_BROWSERS: '2' }),
    serveFixtureSite(),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  for (const socket of sockets) socket.ws.close();
  await pages.closeAll();
  await browser?.close();
  await site?.close();
  await server?.stop();
});

describe('waiting for a free browser', () => {
  it('the conversational screen shows its place in line, then streams once the browser frees', async () => {
    // Another user holds the server's only browser.
    const other = await pages.open({ width: 1000, height: 700 });
    await signIn(other, server.url, await registerAccount(server.url, 'queue'));
    const otherToken = await pageToken(other);
    const otherId = await other.evaluate(
      () => JSON.parse(localStorage.getItem('argus.user') ?? '{}').id as string,
    );
    await other.close();
    const created = await fetch(`${server.url}/api/sessions/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${otherToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Holder', session_type: 'conversational', url: `${site.url}/` }),
    });
    expect(created.status).toBe(201);
    const holderSession = ((await created.json()) as { id: string }).id;
    const holder = openSocket(`${server.url.replace('http', 'ws')}/ws/${otherId}?token=${otherToken}`);
    sockets.push(holder);
    await holder.next('connection_established', 20_000);
    holder.send('start_conversation', {
      session_id: holderSession,
      url: `${site.url}/`,
      video_streaming: false,
    });
    for (;;) {
      const status = await holder.next('browser_status', 60_000);
      if (status.data.status === 'ready') break;
      expect(status.data.status).toBe('loading');
    }

    // This user starts a live browser and is told where it stands.
    const page = await pages.open({ width: 1280, height: 900, timeout: 30_000 });
    await signIn(page, server.url, await registerAccount(server.url, 'queue'));
    await page.getByTestId('sidebar').getByRole('link', { name: 'Conversational Mode' }).click();
    await page.locator('[data-testid="conversational-connection"][data-status="connected"]').waitFor();
    const urlField = page.getByLabel('Website URL (optional)');
    await urlField.fill(`${site.url}/index.html`);
    await urlField.press('Enter');
    const notice = page.getByTestId('browser-notice');
    await notice.waitFor({ timeout: 30_000 });
    expect(await notice.textContent()).toBe('Waiting for a free browser: 1 ahead');
    await page.screenshot({ path: '/tmp/conv-queued.png' });

    // The browser frees: the notice goes and the stream starts.
    holder.send('stop_conversation', { session_id: holderSession, reason: 'user' });
    await page.locator('[data-testid="video-canvas"][data-has-frame="true"]').waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="browser-status"][data-status="ready"]').waitFor({ timeout: 30_000 });
    expect(await notice.count()).toBe(0);
  });
});
