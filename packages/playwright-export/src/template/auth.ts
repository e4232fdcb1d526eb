/**
 * The project's login, done once per Playwright worker: Playwright's "one account per parallel worker"
 * (https://playwright.dev/docs/auth). Each worker signs in on its own, keeps its storage state in a file
 * named by its parallel index, and every test it runs starts from that state. No storage state is shared
 * by two workers, so no two tests running at the same time share a server-side session (its flash
 * messages, CSRF tokens, cart), as Argus runs each of its lanes.
 *
 * tests/support/login.ts holds the project's own login and makes the `test` the specs import with
 * `signedInTest`; tests/support/env.ts gives each worker its account of a pool (`accountNumber`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test as base } from './argus';

/** Signs a fresh page in (the project's login, from tests/support/login.ts). */
export type SignInPage = (page: Page) => Promise<void>;

/** `test` with the worker's sign-in: every test starts signed in, on its worker's own session. */
export function signedInTest(signInPage: SignInPage) {
  return base.extend<Record<never, never>, { workerStorageState: string }>({
    // Every test of a worker starts from the state its worker signed in with.
    storageState: ({ workerStorageState }, use) => use(workerStorageState),

    workerStorageState: [
      async ({ browser }, use, workerInfo) => {
        // Under the output directory, which Playwright empties when a run starts: a run never starts
        // from the sessions of an earlier one (the server may have forgotten them). A worker started
        // again within the run (Playwright does after a failed test) has the same parallel index and
        // keeps its session instead of signing in again.
        const file = join(workerInfo.project.outputDir, '.auth', `worker-${workerInfo.parallelIndex}.json`);
        if (!existsSync(file)) {
          // A worker fixture cannot read the test options: the project's are what a test would get.
          const options = workerInfo.project.use;
          const context = await browser.newContext({
            baseURL: options.baseURL,
            viewport: options.viewport,
            userAgent: options.userAgent,
            deviceScaleFactor: options.deviceScaleFactor,
            isMobile: options.isMobile,
            hasTouch: options.hasTouch,
            locale: options.locale,
            timezoneId: options.timezoneId,
            ignoreHTTPSErrors: options.ignoreHTTPSErrors,
            httpCredentials: options.httpCredentials,
            extraHTTPHeaders: options.extraHTTPHeaders,
            // Signed out: the sign-in starts from a clean browser, whatever the config says.
            storageState: undefined,
          });
          try {
            await signInPage(await context.newPage());
            await context.storageState({ path: file });
          } finally {
            await context.close();
          }
        }
        await use(file);
      },
      { scope: 'worker' },
    ],
  });
}

/**
 * The account of a pool (numbered from 1) that the worker of parallel index `index` signs in with, or
 * null when there is no pool. Numbered variables beside the login's names (`EMAIL_1` and `PASSWORD_1`,
 * `EMAIL_2` and `PASSWORD_2`, …, consecutively from 1; `TOTP_<n>` too when the login asks for a code)
 * are the pool, an account being there when every one of its names is set; worker i takes account
 * (i mod n) + 1. With at least as many accounts as workers, no two workers share an account, so each
 * worker's data is its own. Argus's lanes take their accounts the same way.
 */
export function accountNumber(
  index: number,
  names: string[],
  isSet: (name: string) => boolean,
): number | null {
  let count = 0;
  while (names.every((name) => isSet(`${name}_${count + 1}`))) count++;
  return count === 0 ? null : (index % count) + 1;
}
