import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { launchBrowser, screenshot } from './support/browser';

/** The keys the web app keeps its sign-in under (apps/web/src/lib/auth-storage.ts). */
const TOKEN_KEY = 'argus.token';
const USER_KEY = 'argus.user';
const PASSWORD = 'Correct1horse';

/**
 * What the functions passed to page.evaluate/waitForFunction use of the page. They run in the
 * browser, but this program is compiled without DOM types; the cast is erased, so each function
 * still reads the page's own globals.
 */
interface PageElement {
  getBoundingClientRect(): { left: number; right: number; width: number };
  getAnimations(): unknown[];
}
interface PageGlobals {
  document: { getElementById(id: string): PageElement | null; documentElement: { scrollWidth: number } };
  getComputedStyle(element: PageElement): { position: string; visibility: string };
  localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  innerWidth: number;
}

let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
let userSeq = 0;

beforeAll(async () => {
  server = await spawnServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
  await server?.stop();
});

async function newPage(width = 1440, height = 900): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

async function waitForPath(page: Page, path: string) {
  await page.waitForURL((url) => url.pathname === path);
}

/** A fresh account made through the API, for tests about something other than registration. */
async function createUser(): Promise<{ username: string; email: string }> {
  userSeq += 1;
  const username = `user${userSeq}_${Date.now().toString(36)}`;
  const email = `${username}@example.com`;
  const res = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, email, password: PASSWORD, confirmPassword: PASSWORD }),
  });
  expect(res.status).toBe(201);
  return { username, email };
}

async function signIn(page: Page, username: string, password = PASSWORD) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email or username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signedInPage(
  width = 1440,
  height = 900,
): Promise<{ page: Page; username: string; email: string }> {
  const user = await createUser();
  const page = await newPage(width, height);
  await signIn(page, user.username);
  await waitForPath(page, '/dashboard');
  return { page, ...user };
}

/**
 * The next load starts with a token the server rejects. Written by an init script rather than into the
 * live page, where a request of the page itself could meet the bad token before the reload.
 */
async function rejectedTokenOnReload(page: Page) {
  await page.addInitScript(
    (key) => (globalThis as unknown as PageGlobals).localStorage.setItem(key, 'not-a-valid-token'),
    TOKEN_KEY,
  );
}

function toast(page: Page, text: string) {
  return page.getByRole('status').filter({ hasText: text });
}

async function sidebarStyle(page: Page) {
  return page.evaluate(() => {
    const w = globalThis as unknown as PageGlobals;
    const el = w.document.getElementById('app-sidebar');
    if (!el) throw new Error('no sidebar');
    const style = w.getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return {
      position: style.position,
      visibility: style.visibility,
      left: box.left,
      right: box.right,
      width: box.width,
    };
  });
}

async function waitForSidebarVisibility(page: Page, visibility: 'visible' | 'hidden') {
  await page.waitForFunction((v) => {
    const w = globalThis as unknown as PageGlobals;
    const el = w.document.getElementById('app-sidebar');
    return el !== null && w.getComputedStyle(el).visibility === v && el.getAnimations().length === 0;
  }, visibility);
}

describe('auth and the authenticated shell', () => {
  it('a visitor registers, signs in, visits every sidebar screen and logs out', async () => {
    const page = await newPage();
    const username = `jane_${Date.now().toString(36)}`;
    await page.goto(`${server.url}/register`);

    const strength = page.getByTestId('password-strength-label');
    const submit = page.getByRole('button', { name: 'Create Account' });
    const password = page.getByLabel('Password', { exact: true });
    const confirm = page.getByLabel('Confirm password', { exact: true });

    await page.getByLabel('Username', { exact: true }).fill(username);
    await page.getByLabel('Email', { exact: true }).fill(`${username}@example.com`);
    expect(await strength.textContent()).toBe('Enter password');
    expect(await submit.isDisabled()).toBe(true);

    // The meter counts the four rules: 1-2 Weak, 3 Good, 4 Strong.
    await password.fill('abc');
    expect(await strength.textContent()).toBe('Weak');
    await password.fill('abcdefgh');
    expect(await strength.textContent()).toBe('Weak');
    await password.fill('Abcdefgh');
    expect(await strength.textContent()).toBe('Good');
    expect(await page.locator('[data-met="true"]').count()).toBe(3);
    await password.fill(PASSWORD);
    expect(await strength.textContent()).toBe('Strong');
    expect(await page.locator('[data-met="true"]').count()).toBe(4);

    // The match indicator, and a submit that waits for both the rules and the match.
    await confirm.fill(`${PASSWORD}x`);
    expect(await page.getByTestId('password-match').textContent()).toBe('Passwords do not match');
    expect(await submit.isDisabled()).toBe(true);
    await confirm.fill(PASSWORD);
    expect(await page.getByTestId('password-match').textContent()).toBe('Passwords match');
    expect(await submit.isEnabled()).toBe(true);
    await screenshot(page, 'register-1440');

    await submit.click();
    await toast(page, 'Registration successful! Please login.').waitFor();
    await waitForPath(page, '/login');
    expect(await page.getByLabel('Email or username').inputValue()).toBe(username);
    await screenshot(page, 'login-1440');

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await toast(page, 'Login successful!').waitFor();
    await waitForPath(page, '/dashboard');

    // The shell: top bar, user card, live connection.
    expect(await page.getByTestId('topbar-title').textContent()).toBe('Testing');
    const card = page.getByTestId('user-card');
    expect(await card.textContent()).toContain(username);
    expect(await card.textContent()).toContain(`${username}@example.com`);
    expect(await card.textContent()).toContain('Active');
    await page.locator('[data-testid="connection-status"][data-status="connected"]').waitFor();

    // The home dashboard: three mode cards, four headline stats, three testimonials.
    await page.getByRole('heading', { name: `Welcome back, ${username}` }).waitFor();
    expect(await page.getByTestId('mode-card').allTextContents()).toEqual([
      expect.stringContaining('Conversational Mode'),
      expect.stringContaining('Automation Mode'),
      expect.stringContaining('Analytics'),
    ]);
    const stats = await page.getByTestId('headline-stat').allTextContents();
    expect(stats.map((s) => s.match(/[\d.]+[K%]\+?/)?.[0])).toEqual(['10K+', '500K+', '99.9%', '99.99%']);
    expect(await page.getByTestId('testimonial').count()).toBe(3);
    await screenshot(page, 'dashboard-1440');

    const sidebar = page.getByTestId('sidebar');
    const screens: Array<[link: string, path: string, heading: string, extra?: string]> = [
      ['Conversational Mode', '/conversational', 'Conversational Mode'],
      ['Automation Mode', '/automation', 'Automation Mode'],
      ['Analytics', '/analytics', 'Analytics', 'No runs in this range'],
      ['Figma Comparison', '/figma-comparison', 'Design Comparison'],
      ['Test History', '/history', 'Test History', 'No history yet'],
      ['Settings', '/settings', 'Settings'],
      ['Web Application', '/projects/web', 'Web applications', 'No web applications yet'],
      ['Mobile App', '/projects/mobile', 'Mobile apps', 'No mobile apps yet'],
      ['API Service', '/projects/api', 'API services', 'No API services yet'],
      ['Add New Project', '/projects/new', 'New project'],
      ['Home', '/dashboard', `Welcome back, ${username}`],
    ];
    for (const [link, path, heading, extra] of screens) {
      await sidebar.getByRole('link', { name: link, exact: true }).click();
      await waitForPath(page, path);
      await page.getByRole('main').getByRole('heading', { level: 1, name: heading }).waitFor();
      if (extra) await page.getByRole('main').getByText(extra, { exact: true }).waitFor();
      const current = sidebar.getByRole('link', { name: link, exact: true });
      expect(await current.getAttribute('aria-current')).toBe('page');
    }

    await sidebar.getByRole('button', { name: 'Logout' }).click();
    await toast(page, 'Logged out successfully').waitFor();
    await waitForPath(page, '/login');
    expect(
      await page.evaluate(
        (key) => (globalThis as unknown as PageGlobals).localStorage.getItem(key),
        TOKEN_KEY,
      ),
    ).toBeNull();

    // Signed out, the screens are closed again.
    await page.goto(`${server.url}/automation`);
    await waitForPath(page, '/login');
  });

  it('the guard sends an unauthenticated visit of /dashboard to /login', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/dashboard`);
    await waitForPath(page, '/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('link', { name: 'Create one here' }).getAttribute('href')).toBe('/register');
    expect(await page.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
  });

  it('an unknown path goes to /', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/no/such/page`);
    await waitForPath(page, '/');
    expect(pathOf(page)).toBe('/');
  });

  it('the forgot-password page explains the self-hosted reset and links back to sign-in', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await waitForPath(page, '/forgot-password');
    await page.getByText('Password reset by email is not available in a self-hosted install.').waitFor();
    await page.getByRole('link', { name: 'Back to sign in' }).click();
    await waitForPath(page, '/login');
  });

  it('a signed-in visit of / goes to /dashboard', async () => {
    const { page } = await signedInPage();
    await page.goto(`${server.url}/`);
    await waitForPath(page, '/dashboard');
    await page.goto(`${server.url}/login`);
    await waitForPath(page, '/dashboard');
  });

  it("a wrong password shows the server's detail and stays on /login", async () => {
    const { username } = await createUser();
    const page = await newPage();
    await signIn(page, username, 'Wrong1password');
    await toast(page, 'Incorrect username or password').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('Incorrect username or password');
    expect(pathOf(page)).toBe('/login');
    expect(
      await page.evaluate(
        (key) => (globalThis as unknown as PageGlobals).localStorage.getItem(key),
        TOKEN_KEY,
      ),
    ).toBeNull();
  });

  it('sign-in asks for both fields before calling the server', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/login`);
    let calls = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/auth/login')) calls += 1;
    });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Email or username is required').waitFor();
    await page.getByText('Password is required').waitFor();
    expect(calls).toBe(0);
  });

  it('registering a taken username shows the server detail next to the field', async () => {
    const { username } = await createUser();
    const page = await newPage();
    await page.goto(`${server.url}/register`);
    await page.getByLabel('Username', { exact: true }).fill(username);
    await page.getByLabel('Email', { exact: true }).fill(`other_${username}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await toast(page, 'Username already registered').waitFor();
    expect(await page.getByLabel('Username', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(pathOf(page)).toBe('/register');
  });

  it('the sidebar is an overlay at 1000 px and inline at 1280 px', async () => {
    const { page } = await signedInPage(1000, 800);

    // Below 1024 px: hidden until the menu opens it as a fixed overlay with a backdrop.
    await waitForSidebarVisibility(page, 'hidden');
    expect((await sidebarStyle(page)).position).toBe('fixed');
    const toggle = page.getByRole('button', { name: 'Toggle sidebar' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await waitForSidebarVisibility(page, 'visible');
    const open = await sidebarStyle(page);
    expect(open).toMatchObject({ position: 'fixed', visibility: 'visible', left: 0 });
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.getByTestId('sidebar-backdrop').waitFor();
    await screenshot(page, 'sidebar-overlay-1000');

    // The backdrop closes it...
    await page.getByTestId('sidebar-backdrop').click({ position: { x: 900, y: 400 } });
    await waitForSidebarVisibility(page, 'hidden');
    expect(await page.getByTestId('sidebar-backdrop').count()).toBe(0);

    // ...and so does navigating.
    await toggle.click();
    await waitForSidebarVisibility(page, 'visible');
    await page.getByTestId('sidebar').getByRole('link', { name: 'Settings' }).click();
    await waitForPath(page, '/settings');
    await waitForSidebarVisibility(page, 'hidden');

    // From 1024 px: inline, beside the content, always visible.
    await page.setViewportSize({ width: 1280, height: 800 });
    await waitForSidebarVisibility(page, 'visible');
    const inline = await sidebarStyle(page);
    expect(inline.position).not.toBe('fixed');
    expect(inline).toMatchObject({ visibility: 'visible', left: 0 });
    const mainLeft = await page.getByRole('main').evaluate((el) => el.getBoundingClientRect().left);
    expect(mainLeft).toBeGreaterThanOrEqual(inline.right);
    expect(await page.getByTestId('sidebar-backdrop').count()).toBe(0);

    // Collapsible: the toggle narrows it to an icon rail and back.
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await page.waitForFunction(
      () =>
        (globalThis as unknown as PageGlobals).document.getElementById('app-sidebar')!.getBoundingClientRect()
          .width < 100,
    );
    expect((await sidebarStyle(page)).visibility).toBe('visible');
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await page.waitForFunction(
      () =>
        (globalThis as unknown as PageGlobals).document.getElementById('app-sidebar')!.getBoundingClientRect()
          .width > 250,
    );
  });

  it('the dashboard fits a 390 px phone', async () => {
    const { page } = await signedInPage(390, 844);
    await page.getByRole('heading', { name: /Welcome back/ }).waitFor();
    await waitForSidebarVisibility(page, 'hidden');
    const overflow = await page.evaluate(() => {
      const w = globalThis as unknown as PageGlobals;
      return w.document.documentElement.scrollWidth - w.innerWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'dashboard-390');
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await waitForSidebarVisibility(page, 'visible');
    await screenshot(page, 'dashboard-390-menu');
  });

  it('a session is restored after a reload and the token is checked in the background', async () => {
    const { page, username } = await signedInPage();
    const check = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/me');
    await page.reload();
    const response = await check;
    expect(response.status()).toBe(200);
    await waitForPath(page, '/dashboard');
    expect(await page.getByTestId('user-card').textContent()).toContain(username);
  });

  it('a server that cannot verify the token is asked 3 times, then the user stays signed in', async () => {
    const { page, username } = await signedInPage();
    const started: number[] = [];
    await page.route('**/api/auth/me', (route) => {
      started.push(Date.now());
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"detail":"Service unavailable"}',
      });
    });
    await page.reload();
    await toast(page, 'Token verification failed').waitFor();
    expect(started).toHaveLength(3);
    // 1 s, then 2 s between attempts (docs/PRODUCT.md#sign-in).
    expect(started[1] - started[0]).toBeGreaterThanOrEqual(900);
    expect(started[2] - started[1]).toBeGreaterThanOrEqual(1900);
    expect(pathOf(page)).toBe('/dashboard');
    expect(await page.getByTestId('user-card').textContent()).toContain(username);
  });

  it('a corrupt saved user logs out', async () => {
    const { page } = await signedInPage();
    await page.evaluate(
      (key) => (globalThis as unknown as PageGlobals).localStorage.setItem(key, '{"not": "a user"'),
      USER_KEY,
    );
    await page.reload();
    await waitForPath(page, '/login');
    expect(
      await page.evaluate(
        (key) => (globalThis as unknown as PageGlobals).localStorage.getItem(key),
        TOKEN_KEY,
      ),
    ).toBeNull();
    expect(
      await page.evaluate(
        (key) => (globalThis as unknown as PageGlobals).localStorage.getItem(key),
        USER_KEY,
      ),
    ).toBeNull();
  });

  it('a token the server rejects logs out after the background check', async () => {
    const { page } = await signedInPage();
    await rejectedTokenOnReload(page);
    // Watched from before the reload: the toast shows for 4 s, which on a busy machine can pass while
    // the path is still being waited for.
    const shown = toast(page, 'Authentication failed').waitFor({ timeout: 30_000 });
    await page.reload();
    await waitForPath(page, '/login');
    await shown;
    expect(
      await page.evaluate(
        (key) => (globalThis as unknown as PageGlobals).localStorage.getItem(key),
        TOKEN_KEY,
      ),
    ).toBeNull();
  });

  it("a page's own 401 that comes before the background check still says 'Authentication failed'", async () => {
    const { page } = await signedInPage();
    await rejectedTokenOnReload(page);
    // The check answers late, so the dashboard's own queries meet the 401 first (as on a busy server).
    await page.route('**/api/auth/me', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await route.continue().catch(() => undefined);
    });
    const shown = toast(page, 'Authentication failed').waitFor({ timeout: 30_000 });
    await page.reload();
    await waitForPath(page, '/login');
    await shown;
  });
});

describe('the app under its own Content-Security-Policy', () => {
  it('runs signed out and signed in, socket connected, without a single CSP violation', async () => {
    const { page } = await signedInPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|unsafe-eval/i.test(message.text())) violations.push(message.text());
    });
    await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      const w = globalThis as unknown as {
        addEventListener(
          type: string,
          fn: (e: { violatedDirective: string; blockedURI: string }) => void,
        ): void;
        reportCspViolation(text: string): void;
      };
      w.addEventListener('securitypolicyviolation', (e) =>
        w.reportCspViolation(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    for (const path of ['/dashboard', '/automation', '/']) {
      await page.goto(`${server.url}${path}`);
      if (path !== '/')
        await page.locator('[data-testid="connection-status"][data-status="connected"]').waitFor();
      await page.waitForTimeout(500);
    }
    expect(violations).toEqual([]);
  });
});
