import type { StepUpdate, TestCase } from '@argus/protocol';
import { parseStep, type Step, StepSyntaxError } from '@argus/protocol';
import type { CDPSession, Locator, Page } from 'playwright-core';
import { AbortedError, type BrowserPool } from './browser-pool';
import { locate } from './locate';
import {
  accessibilityViolations,
  brokenLinks,
  fieldShowsError,
  horizontalOverflow,
  imagesWithoutAlt,
  visibleErrors,
} from './page-checks';
import { PageTracker } from './page-tracker';
import { BLOCKED_HEADER } from './policy-proxy';
import { isWebPage, resolveWebUrl, SchemeRefusedError } from './web-url';

export interface CapturedScreenshot {
  step_index: number;
  step_name: string;
  /** JPEG bytes. */
  data: Buffer;
  width: number;
  height: number;
}

export interface LogEntry {
  timestamp: string;
  level: 'info' | 'warn' | 'error';
  message: string;
}

export interface TestOutcome {
  status: 'passed' | 'failed';
  error: string | null;
  /** Seconds. */
  executionTime: number;
  steps: StepUpdate[];
  screenshots: CapturedScreenshot[];
  logs: LogEntry[];
}

export interface RunTestOptions {
  /** Resolves relative `Navigate to` targets; the first page when the case names none. */
  baseUrl: string;
  signal?: AbortSignal;
  /** Each step is reported twice: `pending` when it starts, then `success` or `error` with a screenshot. */
  onStep?: (update: StepUpdate, screenshot?: CapturedScreenshot) => void;
  /** @default 10000 */
  stepTimeoutMs?: number;
  /** @default 90000 */
  testTimeoutMs?: number;
  /** JPEG after every step. @default true */
  screenshots?: boolean;
  /** @default 1280x800 */
  viewport?: { width: number; height: number };
}

const JPEG_QUALITY = 60;

export function describeStep(step: Step): string {
  switch (step.verb) {
    case 'navigate':
      return `navigate`;
    default:
      return step.verb.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  }
}

/** Runs one test case in its own browser context. Never throws: a failure is an outcome. */
export async function runTestCase(
  pool: BrowserPool,
  testCase: TestCase,
  options: RunTestOptions,
): Promise<TestOutcome> {
  let started = Date.now();
  const steps: StepUpdate[] = [];
  const screenshots: CapturedScreenshot[] = [];
  const logs: LogEntry[] = [];
  const log = (level: LogEntry['level'], message: string) =>
    logs.push({ timestamp: new Date().toISOString(), level, message });
  const stepTimeout = options.stepTimeoutMs ?? 10_000;
  let testDeadline = started + (options.testTimeoutMs ?? 90_000);
  const viewport = options.viewport ?? { width: 1280, height: 800 };
  const finish = (error: string | null): TestOutcome => ({
    status: error ? 'failed' : 'passed',
    error,
    executionTime: Math.round((Date.now() - started) / 10) / 100,
    steps,
    screenshots,
    logs,
  });

  // Parse everything first: a typo fails the case before a browser is opened.
  const lines = [...testCase.steps];
  let parsed: Step[];
  try {
    parsed = lines.map(parseStep);
  } catch (error) {
    const message = error instanceof StepSyntaxError ? error.message : String(error);
    log('error', message);
    return finish(message);
  }
  const start = testCase.url || options.baseUrl;
  if (parsed[0]?.verb !== 'navigate') {
    parsed.unshift({ verb: 'navigate', url: start });
    lines.unshift(`Navigate to ${start}`);
  }

  try {
    return await pool.withContext(
      async (context) => {
        // The clock starts when the test gets its browser, not while it waits in line.
        started = Date.now();
        testDeadline = started + (options.testTimeoutMs ?? 90_000);
        const page = await context.newPage();
        const tracker = new PageTracker(page);
        const cdp =
          options.screenshots === false ? null : await context.newCDPSession(page).catch(() => null);
        let failure: string | null = null;
        for (let i = 0; i < parsed.length; i++) {
          if (options.signal?.aborted) throw new AbortedError();
          const step = parsed[i];
          const update: StepUpdate = {
            step_number: i + 1,
            step_index: i,
            action: describeStep(step),
            description: lines[i],
            url: page.url(),
            selector: null,
            value: 'value' in step ? step.value : null,
            error: null,
            status: 'pending',
            timestamp: new Date().toISOString(),
            thoughts: { next_goal: lines[i + 1] ?? 'Finish the test' },
          };
          options.onStep?.({ ...update });
          let selector: string | null = null;
          try {
            const remaining = testDeadline - Date.now();
            if (remaining <= 0)
              throw new Error(`The test ran out of time (${options.testTimeoutMs ?? 90_000} ms)`);
            selector = await withTimeout(
              perform(page, step, tracker, pool, options.baseUrl, Math.min(stepTimeout, remaining)),
              Math.min(stepTimeout, remaining) + 2_000,
              `Step timed out after ${Math.min(stepTimeout, remaining)} ms`,
              options.signal,
            );
            if (tracker.crashed) throw new Error('The page crashed');
            update.status = 'success';
            log('info', `Step ${i + 1}: ${lines[i]}`);
          } catch (error) {
            if (error instanceof AbortedError) throw error;
            failure = tracker.crashed ? 'The page crashed' : cleanError(error);
            update.status = 'error';
            update.error = failure;
            log('error', `Step ${i + 1} failed: ${lines[i]} — ${failure}`);
          }
          // Whatever led there (a link, a script, a redirect the proxy did not see), a page that is not
          // http(s) is left before anything is photographed or read from it.
          if (!page.isClosed() && !tracker.crashed && !isWebPage(page.url())) {
            const shown = page.url();
            await page.goto('about:blank', { timeout: 5_000 }).catch(() => {});
            failure = new SchemeRefusedError(shown).message;
            update.status = 'error';
            update.error = failure;
            log('error', `Step ${i + 1} failed: ${lines[i]} — ${failure} (${shown.slice(0, 200)})`);
          }
          update.selector = selector;
          update.url = page.isClosed() ? update.url : page.url();
          update.timestamp = new Date().toISOString();
          let shot: CapturedScreenshot | undefined;
          if (options.screenshots !== false && !tracker.crashed && !page.isClosed()) {
            shot = await capture(page, cdp, i, lines[i]).catch((error) => {
              log('warn', `Step ${i + 1}: no screenshot (${cleanError(error)})`);
              return undefined;
            });
            if (shot) {
              screenshots.push(shot);
              update.screenshot = {
                base64_data: shot.data.toString('base64'),
                width: shot.width,
                height: shot.height,
              };
            }
          }
          steps.push({
            ...update,
            screenshot: update.screenshot ? { width: shot?.width, height: shot?.height } : null,
          });
          options.onStep?.(update, shot);
          if (failure) return finish(failure);
        }
        return finish(null);
      },
      { viewport, signal: options.signal },
    );
  } catch (error) {
    if (error instanceof AbortedError) {
      log('warn', 'Stopped by the user');
      return finish('Stopped by the user');
    }
    const message = cleanError(error);
    log('error', message);
    return finish(message.includes('closed') ? `The browser closed unexpectedly: ${message}` : message);
  }
}

/**
 * A JPEG of the viewport straight from CDP: about half the cost of page.screenshot (STACK-NOTES.md),
 * which matters when every step takes one.
 */
async function capture(
  page: Page,
  cdp: CDPSession | null,
  index: number,
  name: string,
): Promise<CapturedScreenshot> {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  const viaCdp = cdp
    ? await cdp
        .send('Page.captureScreenshot', { format: 'jpeg', quality: JPEG_QUALITY })
        .then((shot) => Buffer.from((shot as { data: string }).data, 'base64'))
        // CDP refuses while a new document is being committed; Playwright's own capture waits for it.
        .catch(() => null)
    : null;
  const data = viaCdp ?? (await page.screenshot({ type: 'jpeg', quality: JPEG_QUALITY, timeout: 5_000 }));
  return { step_index: index, step_name: name, data, width: size.width, height: size.height };
}

function cleanError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // Playwright appends a call log; the first line is the part a person reads.
  return text.split('\nCall log:')[0].split('\n=====')[0].trim();
}

async function withTimeout<T>(
  work: Promise<T>,
  ms: number,
  message: string,
  signal?: AbortSignal,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
      }),
      new Promise<never>((_, reject) => {
        onAbort = () => reject(new AbortedError());
        if (signal?.aborted) onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    work.catch(() => {}); // the loser of the race may still reject later
  }
}

async function poll(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Whether some match becomes visible (or every match goes away) within the timeout. Appearing uses
 * Playwright's own waiting, which reacts to DOM changes; polling would add up to an interval per check.
 */
async function visibility(locator: Locator, visible: boolean, timeout: number): Promise<boolean> {
  const shown = locator.filter({ visible: true });
  if (!visible) return poll(async () => (await shown.count()) === 0, timeout);
  return shown
    .first()
    .waitFor({ state: 'visible', timeout })
    .then(
      () => true,
      () => false,
    );
}

function fail(problems: string[]): void {
  if (problems.length === 0) return;
  const shown = problems.slice(0, 5).join('; ');
  throw new Error(problems.length > 5 ? `${shown}; and ${problems.length - 5} more` : shown);
}

/** Performs one step; answers the selector it used, if any. */
async function perform(
  page: Page,
  step: Step,
  tracker: PageTracker,
  pool: BrowserPool,
  baseUrl: string,
  timeout: number,
): Promise<string | null> {
  switch (step.verb) {
    case 'navigate': {
      // Relative targets resolve against the page (else the run's URL); only http(s) may be opened.
      const url = resolveWebUrl(step.url, page.url().startsWith('http') ? page.url() : baseUrl);
      tracker.reset();
      let response: Awaited<ReturnType<Page['goto']>>;
      try {
        response = await page.goto(url, { timeout, waitUntil: 'load' });
      } catch (error) {
        const refusal = await pool.refusalFor(new URL(url).hostname);
        throw new Error(refusal ?? `Could not open ${url}: ${cleanError(error)}`);
      }
      const blocked = response?.headers()[BLOCKED_HEADER];
      if (blocked) throw new Error(decodeURIComponent(blocked));
      if (response && response.status() >= 400) throw new Error(`${url} answered HTTP ${response.status()}`);
      return null;
    }
    case 'back':
      await page.goBack({ timeout });
      return null;
    case 'reload':
      tracker.reset();
      await page.reload({ timeout });
      return null;
    case 'click': {
      const { locator, selector } = await locate(page, step.target, 'click', timeout, step.role);
      await locator.click({ timeout });
      await page.waitForLoadState('domcontentloaded', { timeout }).catch(() => {});
      return selector;
    }
    case 'hover': {
      const { locator, selector } = await locate(page, step.target, 'any', timeout);
      await locator.hover({ timeout });
      return selector;
    }
    case 'fill': {
      const { locator, selector } = await locate(page, step.field, 'field', timeout);
      await locator.fill(step.value, { timeout });
      return selector;
    }
    case 'clear': {
      const { locator, selector } = await locate(page, step.field, 'field', timeout);
      await locator.clear({ timeout });
      return selector;
    }
    case 'select': {
      const { locator, selector } = await locate(page, step.field, 'field', timeout);
      await locator
        .selectOption({ label: step.option }, { timeout })
        .catch(() => locator.selectOption(step.option, { timeout }));
      return selector;
    }
    case 'check': {
      const { locator, selector } = await locate(page, step.target, 'check', timeout);
      await locator.setChecked(step.checked, { timeout });
      return selector;
    }
    case 'press': {
      if (step.field) {
        const { locator, selector } = await locate(page, step.field, 'field', timeout);
        await locator.press(step.key, { timeout });
        await page.waitForLoadState('domcontentloaded', { timeout }).catch(() => {});
        return selector;
      }
      await page.keyboard.press(step.key);
      await page.waitForLoadState('domcontentloaded', { timeout }).catch(() => {});
      return null;
    }
    case 'scroll': {
      if (step.target === 'bottom' || step.target === 'top') {
        await page.evaluate(
          (to) => window.scrollTo(0, to === 'bottom' ? document.body.scrollHeight : 0),
          step.target,
        );
        return null;
      }
      const { locator, selector } = await locate(page, step.target, 'any', timeout);
      await locator.scrollIntoViewIfNeeded({ timeout });
      return selector;
    }
    case 'wait':
      await page.waitForTimeout(Math.min(step.ms, timeout));
      return null;
    case 'waitForText':
      await page.getByText(step.text).first().waitFor({ state: 'visible', timeout });
      return `text*="${step.text}"`;
    case 'viewport':
      await page.setViewportSize({ width: step.width, height: step.height });
      return null;
    case 'screenshot':
      return null;
    case 'verifyText': {
      const ok = await visibility(page.getByText(step.text), step.visible, timeout);
      if (!ok)
        throw new Error(
          `Expected the text "${step.text}" ${step.visible ? 'to be' : 'not to be'} visible on ${page.url()}`,
        );
      return `text*="${step.text}"`;
    }
    case 'verifyElement': {
      const ok = await visibility(page.getByRole(step.role, { name: step.name }), step.visible, timeout);
      if (!ok) {
        throw new Error(
          `Expected a ${step.role} named "${step.name}" ${step.visible ? 'to be' : 'not to be'} visible on ${page.url()}`,
        );
      }
      return `role=${step.role}[name*="${step.name}"]`;
    }
    case 'verifyUrl': {
      const ok = await page
        .waitForURL((url) => url.href.includes(step.text), { timeout, waitUntil: 'commit' })
        .then(
          () => true,
          () => false,
        );
      if (!ok) throw new Error(`Expected the URL to contain "${step.text}", but it is ${page.url()}`);
      return null;
    }
    case 'verifyTitle': {
      const ok = await poll(async () => (await page.title()).includes(step.text), timeout);
      if (!ok)
        throw new Error(`Expected the title to contain "${step.text}", but it is "${await page.title()}"`);
      return null;
    }
    case 'verifyValue': {
      const { locator, selector } = await locate(page, step.field, 'field', timeout);
      const ok = await poll(async () => (await locator.inputValue()) === step.value, timeout);
      if (!ok)
        throw new Error(
          `Expected "${step.field}" to hold "${step.value}", but it holds "${await locator.inputValue()}"`,
        );
      return selector;
    }
    case 'verifyInvalid': {
      const { locator, selector } = await locate(page, step.field, 'field', timeout);
      const ok = await poll(() => fieldShowsError(locator), timeout);
      if (!ok) throw new Error(`Expected "${step.field}" to show a validation error, but none is shown`);
      return selector;
    }
    case 'verifyNoErrors': {
      await page.waitForTimeout(200); // let a submit handler render its messages
      fail(await visibleErrors(page));
      return null;
    }
    case 'verifyCount': {
      const locator = page.getByRole(step.role).filter({ visible: true });
      const ok = await poll(async () => (await locator.count()) >= step.atLeast, timeout);
      if (!ok)
        throw new Error(`Expected at least ${step.atLeast} ${step.role}s, found ${await locator.count()}`);
      return `role=${step.role}`;
    }
    case 'verifyNoConsoleErrors':
      await page.waitForLoadState('load', { timeout });
      fail(tracker.consoleErrors().map((p) => `Console error on ${p.url}: ${p.message}`));
      return null;
    case 'verifyNoFailedRequests':
      await page.waitForLoadState('load', { timeout });
      fail(tracker.failedRequests().map((p) => `Failed request: ${p.message}`));
      return null;
    case 'verifyLinksWork':
      fail(await brokenLinks(page));
      return 'a[href]';
    case 'verifyImagesAlt':
      fail(await imagesWithoutAlt(page));
      return 'img';
    case 'verifyNoOverflow':
      fail(await horizontalOverflow(page));
      return null;
    case 'verifyAccessibility':
      fail(await accessibilityViolations(page));
      return null;
    default: {
      const never: never = step;
      throw new Error(`Unsupported step ${(never as Step).verb}`);
    }
  }
}
