import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type TestAccount } from '../apps/server/src/testing/oidc-providers';
import { freePort, type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { PageOpener, pageToken } from './support/app';
import { describeViolations, isBlocking, runAxe } from './support/axe';
import { launchBrowser, screenshot } from './support/browser';

/**
 * Single sign-on in the browser (docs/SSO.md): the login page's "Sign in with Acme ID" goes to a real
 * OpenID provider (oidc-provider on 127.0.0.1) and back, and the user lands signed in; a refusal is
 * said on the login page in words. Screenshots at 1440 and 390 px; axe-clean.
 *
 * OIDC_REDIRECT_URL must name the server's port before the server has one (spawnServer picks it), so
 * it names a forwarder's, which sends the browser on to the server as a reverse proxy would.
 */

const CLIENT = { clientId: 'argus-e2e', clientSecret: 'e2e-sso-secret' };
const accounts: Record<string, TestAccount> = {
  'sub-gail': {
    email: 'gail@example.com',
    email_verified: true,
    name: 'Gail Hart',
    preferred_username: 'gail',
  },
  'sub-hal': { email: 'hal@example.com', email_verified: false },
};

let server: RunningServer;
let browser: Browser;
let forwarder: Server;
let provider: Awaited<ReturnType<typeof startOidcProvider>>;
const pages = new PageOpener(() => browser);

beforeAll(async () => {
  const port = await freePort();
  let target = '';
  forwarder = createServer((req, res) => {
    res.writeHead(302, { location: `${target}${req.url}` }).end();
  });
  await new Promise<void>((done) => forwarder.listen(port, '127.0.0.1', done));
  const redirectUri = `http://127.0.0.1:${port}/api/auth/sso/callback`;
  provider = await startOidcProvider({ ...CLIENT, redirectUri }, accounts);
  [server, browser] = await Promise.all([
    spawnServer({
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT.clientId,
      OIDC_CLIENT_SECRET: CLIENT.clientSecret,
      OIDC_REDIRECT_URL: redirectUri,
      OIDC_NAME: 'Acme ID',
    }),
    launchBrowser(),
  ]);
  target = server.url;
});

afterAll(async () => {
  await pages.closeAll();
  await browser?.close();
  await server?.stop();
  await provider?.stop();
  await new Promise((done) => forwarder?.close(done));
});

async function axeFailures(page: Page, state: string): Promise<string[]> {
  const violations = await runAxe(page);
  return describeViolations(violations.filter(isBlocking)).map((line) => `${state}: ${line}`);
}

describe('single sign-on from the login page', () => {
  it('signs a new user in through the provider and lands on the dashboard', async () => {
    provider.signInAs.subject = 'sub-gail';
    const page = await pages.open();
    await page.goto(`${server.url}/login`);
    const button = page.getByRole('link', { name: 'Sign in with Acme ID' });
    // The button comes once the page has asked the server whether it offers single sign-on.
    await button.waitFor();
    await screenshot(page, 'sso-login-1440');
    expect(await axeFailures(page, 'login with SSO')).toEqual([]);
    await button.click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    const me = await fetch(`${server.url}/api/auth/me`, {
      headers: { authorization: `Bearer ${await pageToken(page)}` },
    });
    expect(await me.json()).toMatchObject({ username: 'gail', email: 'gail@example.com' });
  });

  it('says in words why a sign-in was refused, on a phone, and leaves no code in the address', async () => {
    provider.signInAs.subject = 'sub-hal';
    const page = await pages.open({ width: 390, height: 844 });
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Sign in with Acme ID' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('did not confirm your email address');
    await page.waitForURL((url) => url.pathname === '/login' && url.search === '');
    await screenshot(page, 'sso-refused-390');
    expect(await axeFailures(page, 'refused SSO at 390')).toEqual([]);
  });
});
