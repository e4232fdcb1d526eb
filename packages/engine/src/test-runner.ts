import type { StepUpdate, TestCase } from '@argus/protocol';
import { parseStep, type Step, StepSyntaxError } from '@argus/protocol';
import type { BrowserPool } from './browser-pool';
import { type BrowserSession, PageLeftError } from './browser-session';
import { AbortedError, cleanError } from './errors';

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

/**
 * Runs one test case in its own browser session. Never throws: a failure is an outcome.
 *
 * A step's screenshot is asked of the browser as soon as the step is done and arrives while the next
 * step already locates its target (the session holds back anything that would change the page until
 * the capture is taken, so it shows the page as the step left it). Updates are still reported in
 * order: a step's `pending`, its result with the screenshot, then the next step's `pending`.
 */
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
  const testTimeout = options.testTimeoutMs ?? 90_000;
  const viewport = options.viewport ?? { width: 1280, height: 800 };
  let session: BrowserSession | undefined;
  /** Whether the case checks console errors or failed requests (set once its steps are parsed). */
  let checksPageHealth = false;
  const finish = (error: string | null): TestOutcome => {
    // What those checks left out (a missing /favicon.ico…) is said once, as warnings, as the test ends.
    if (session && checksPageHealth) for (const message of ignoredWarnings(session)) log('warn', message);
    return {
      status: error ? 'failed' : 'passed',
      error,
      executionTime: Math.round((Date.now() - started) / 10) / 100,
      steps,
      screenshots,
      logs,
    };
  };

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
  checksPageHealth = parsed.some(
    (step) => step.verb === 'verifyNoConsoleErrors' || step.verb === 'verifyNoFailedRequests',
  );
  const start = testCase.url || options.baseUrl;
  if (parsed[0]?.verb !== 'navigate') {
    parsed.unshift({ verb: 'navigate', url: start });
    lines.unshift(`Navigate to ${start}`);
  }

  // Every update goes through this chain, so they reach onStep in order even though a step's result
  // waits for its screenshot while the next step runs.
  let reported: Promise<void> = Promise.resolve();
  const report = (send: () => void | Promise<void>) => {
    reported = reported.then(send);
  };
  // Set when a step's screenshot finds that the page left the web after the step: that step failed.
  let lateFailure: string | null = null;
  try {
    session = await pool.openSession({ viewport, signal: options.signal, baseUrl: options.baseUrl });
    // The clock starts when the test gets its browser, not while it waits in line.
    started = Date.now();
    const testDeadline = started + testTimeout;
    for (let i = 0; i < parsed.length; i++) {
      if (options.signal?.aborted) throw new AbortedError();
      const step = parsed[i];
      const update: StepUpdate = {
        step_number: i + 1,
        step_index: i,
        action: describeStep(step),
        description: lines[i],
        url: session.url,
        selector: null,
        value: 'value' in step ? step.value : null,
        error: null,
        status: 'pending',
        timestamp: new Date().toISOString(),
        thoughts: { next_goal: lines[i + 1] ?? 'Finish the test' },
      };
      const pending = { ...update };
      report(() => options.onStep?.(pending));
      let selector: string | null = null;
      let failure: string | null = null;
      try {
        const remaining = testDeadline - Date.now();
        if (remaining <= 0) throw new Error(`The test ran out of time (${testTimeout} ms)`);
        selector = await session.perform(step, { timeoutMs: Math.min(stepTimeout, remaining) });
        update.status = 'success';
        log('info', `Step ${i + 1}: ${lines[i]}`);
      } catch (error) {
        if (error instanceof AbortedError) throw error;
        failure = cleanError(error);
        update.status = 'error';
        update.error = failure;
        if (error instanceof PageLeftError) {
          // The page went to what is not a web page: it was left for about:blank before any screenshot.
          selector = error.selector;
          log('error', `Step ${i + 1} failed: ${lines[i]} — ${failure} (${error.url.slice(0, 200)})`);
        } else {
          log('error', `Step ${i + 1} failed: ${lines[i]} — ${failure}`);
        }
      }
      update.selector = selector;
      update.url = session.closed ? update.url : session.url;
      update.timestamp = new Date().toISOString();
      const shot =
        options.screenshots !== false && !session.closed ? capture(session, i, lines[i]) : undefined;
      report(async () => {
        const { taken, error } = (await shot) ?? {};
        if (error instanceof PageLeftError) {
          // The page went off the web while it was being photographed: the picture is thrown away, the
          // page is on about:blank, and the step that led there fails.
          const message = cleanError(error);
          update.status = 'error';
          update.error = message;
          update.url = 'about:blank';
          log('error', `Step ${i + 1} failed: ${lines[i]} — ${message} (${error.url.slice(0, 200)})`);
          lateFailure ??= message;
        } else if (error) {
          log('warn', `Step ${i + 1}: no screenshot (${cleanError(error)})`);
        }
        if (taken) {
          screenshots.push(taken);
          update.screenshot = {
            base64_data: taken.data.toString('base64'),
            width: taken.width,
            height: taken.height,
          };
        }
        steps.push({
          ...update,
          screenshot: taken ? { width: taken.width, height: taken.height } : null,
        });
        options.onStep?.(update, taken);
      });
      if (failure || lateFailure) {
        await reported;
        return finish(lateFailure ?? failure);
      }
    }
    await reported;
    return finish(lateFailure);
  } catch (error) {
    // Whatever ends the test, the updates already under way are delivered first.
    const undelivered = await reported.then(
      () => null,
      (e: unknown) => e,
    );
    if (error instanceof AbortedError) {
      log('warn', 'Stopped by the user');
      return finish('Stopped by the user');
    }
    const message = cleanError(undelivered ?? error);
    log('error', message);
    return finish(message.includes('closed') ? `The browser closed unexpectedly: ${message}` : message);
  } finally {
    await session?.close();
  }
}

/**
 * One warning per resource the session's page tracker left out of its console-error and failed-request
 * checks because a visitor never sees it (see PageTracker), e.g. 'Not counted as a failure (a visitor
 * never sees it): Console error: Failed to load resource: … (http://…/favicon.ico)'.
 */
function ignoredWarnings(session: BrowserSession): string[] {
  const findings = session.ignoredFindings();
  const seen = new Set<string>();
  const warnings: string[] = [];
  for (const finding of findings) {
    const key = finding.resource ?? finding.message;
    if (seen.has(key)) continue;
    seen.add(key);
    const what = finding.kind === 'request' ? 'Failed request' : 'Console error';
    const where =
      finding.resource && !finding.message.includes(finding.resource) ? ` (${finding.resource})` : '';
    warnings.push(`Not counted as a failure (a visitor never sees it): ${what}: ${finding.message}${where}`);
  }
  return warnings;
}

/** The step's JPEG, asked for now (the session sends the capture before this returns); never rejects. */
function capture(
  session: BrowserSession,
  index: number,
  name: string,
): Promise<{ taken?: CapturedScreenshot; error?: unknown }> {
  return session.screenshot({ quality: JPEG_QUALITY }).then(
    (shot) => ({ taken: { step_index: index, step_name: name, ...shot } }),
    (error: unknown) => ({ error }),
  );
}
