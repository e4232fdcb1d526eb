import type { Browser, BrowserContext, Page } from 'playwright-core';

/** The password e2e accounts are made with: strong enough for the register rules. */
export const PASSWORD = 'Correct1horse';

export interface PageOptions {
  /** @default 1440 */
  width?: number;
  /** @default 1000 */
  height?: number;
  /** Playwright's default action timeout. @default 20_000 */
  timeout?: number;
  acceptDownloads?: boolean;
  /** Grants clipboard reading and writing to this origin (a Copy button's test reads it back). */
  clipboardOrigin?: string;
}

/**
 * Opens pages of one browser, each in a context of its own (its own storage, so its own signed-in
 * user), and closes them all at the end of the file.
 */
export class PageOpener {
  private readonly contexts: BrowserContext[] = [];

  constructor(private readonly browser: () => Browser) {}

  async open(options: PageOptions = {}): Promise<Page> {
    const context = await this.browser().newContext({
      viewport: { width: options.width ?? 1440, height: options.height ?? 1000 },
      acceptDownloads: options.acceptDownloads ?? false,
    });
    this.contexts.push(context);
    if (options.clipboardOrigin)
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: options.clipboardOrigin,
      });
    const page = await context.newPage();
    page.setDefaultTimeout(options.timeout ?? 20_000);
    return page;
  }

  async closeAll(): Promise<void> {
    for (const context of this.contexts.splice(0)) await context.close().catch(() => {});
  }
}

/** A toast (the app's role="status" notices) that says `text`. */
export function toast(page: Page, text: string) {
  return page.getByRole('status').filter({ hasText: text }).first();
}

let accounts = 0;

/** A fresh account made through the API (not the screen under test); returns its username. */
export async function registerAccount(baseUrl: string, prefix: string, password = PASSWORD): Promise<string> {
  accounts += 1;
  const username = `${prefix}${accounts}_${Date.now().toString(36)}`;
  const res = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      username,
      email: `${username}@example.com`,
      password,
      confirmPassword: password,
    }),
  });
  if (res.status !== 201)
    throw new Error(`Registering ${username} answered ${res.status}: ${await res.text()}`);
  return username;
}

/** Signs in through the login screen and waits for the dashboard. */
export async function signIn(
  page: Page,
  baseUrl: string,
  username: string,
  password = PASSWORD,
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email or username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard');
}

/** The signed-in page's login token, as the app keeps it. */
export async function pageToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('argus.token'));
  if (!token) throw new Error('The page holds no login token');
  return token;
}
