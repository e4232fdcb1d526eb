import type { StepUpdate, TestCase, VisualCheckOutcome } from '@argus/protocol';
import { parseStep, type Step, StepSyntaxError } from '@argus/protocol';
import type { SessionOpener } from './browser-pool';
import { type BrowserSession, PageLeftError } from './browser-session';
import { keyWithoutSecrets } from './element-key';
import { AbortedError, cleanError } from './errors';
import { CaseRecorder } from './recording/case-recorder';
import { RenewingSteps } from './session-renewal';
import type { InterpreterUsage } from './step-interpreter';
import type { CapturedScreenshot, LogEntry, RunTestOptions, TestOutcome } from './test-outcome';
import { redactor } from './variables';
import { visualOutcomes } from './visual/case-visuals';

export type { SessionRenewal } from './session-renewal';
export type {
  CapturedScreenshot,
  LogEntry,
  RecordedFiles,
  RunTestOptions,
  TestOutcome,
} from './test-outcome';

/** The engine named on step-language steps. */
export const BUILTIN_ENGINE = 'built-in (rule-based)';

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
  pool: SessionOpener,
  testCase: TestCase,
  options: RunTestOptions,
): Promise<TestOutcome> {
  let started = Date.now();
  const steps: StepUpdate[] = [];
  const screenshots: CapturedScreenshot[] = [];
  const logs: LogEntry[] = [];
  const visualChecks: VisualCheckOutcome[] = [];
  const usage: InterpreterUsage = { model_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 };
  // Secrets never reach a log line or an error, whatever the page or a message quoted.
  const hide = redactor(options.variables);
  const log = (level: LogEntry['level'], message: string) =>
    logs.push({ timestamp: new Date().toISOString(), level, message: hide(message) });
  const stepTimeout = options.stepTimeoutMs ?? 10_000;
  const testTimeout = options.testTimeoutMs ?? 90_000;
  const viewport = options.viewport ?? { width: 1280, height: 800 };
  let session: BrowserSession | undefined;
  /** Whether the case checks console errors or failed requests (set once its steps are parsed). */
  let checksPageHealth = false;
  /** The outcome once decided: the recording's results are added to it as the session closes. */
  let ended: TestOutcome | undefined;
  const finish = (error: string | null): TestOutcome => {
    // What those checks left out (a missing /favicon.ico…) is said once, as warnings, as the test ends.
    if (session && checksPageHealth) for (const message of ignoredWarnings(session)) log('warn', message);
    ended = {
      status: error ? 'failed' : 'passed',
      error: error === null ? null : hide(error),
      executionTime: Math.round((Date.now() - started) / 10) / 100,
      steps,
      screenshots,
      logs,
      usage,
      visualChecks,
    };
    return ended;
  };

  // Parse everything first: a typo fails the case before a browser is opened.
  const lines = [...testCase.steps];
  const { interpreter } = options;
  // A line the step language does not parse is the interpreter's (null here), or fails the case.
  let parsed: (Step | null)[];
  try {
    parsed = lines.map((line) => {
      try {
        return parseStep(line);
      } catch (error) {
        if (interpreter && error instanceof StepSyntaxError) return null;
        throw error;
      }
    });
  } catch (error) {
    const message = error instanceof StepSyntaxError ? error.message : String(error);
    log('error', message);
    return finish(message);
  }
  checksPageHealth = parsed.some(
    (step) => step?.verb === 'verifyNoConsoleErrors' || step?.verb === 'verifyNoFailedRequests',
  );
  const expected = interpreter ? testCase.expected_result.trim() : '';
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
  // Its trace, video, console and network, and its failure's label (recording/, failure/).
  const recorder = new CaseRecorder({
    recording: options.recording,
    variables: options.variables,
    extraSecrets: options.extraSecrets,
    viewport,
    lines,
    warn: (message) => log('warn', message),
  });
  try {
    session = await recorder.openSession(pool, {
      viewport,
      signal: options.signal,
      baseUrl: options.baseUrl,
      onQueued: options.onQueued,
      variables: options.variables,
      visual: options.visual,
    });
    options.onSession?.(session);
    // The clock starts when the test gets its browser, not while it waits in line.
    started = Date.now();
    recorder.begin(started);
    const testDeadline = started + testTimeout;
    // The expected result, judged once every step has passed, is the last step the log shows.
    const total = parsed.length + (expected ? 1 : 0);
    // A signed-in test survives an expired session met mid-step (session-renewal.ts).
    const renewing = options.renewal
      ? new RenewingSteps(session, options.renewal, {
          signal: options.signal,
          deadline: testDeadline,
          stepTimeoutMs: stepTimeout,
          log,
        })
      : null;
    for (let i = 0; i < total; i++) {
      if (options.signal?.aborted) throw new AbortedError();
      const judging = i === parsed.length;
      const step = judging ? null : parsed[i];
      const line = judging ? `Judge the expected result: ${expected}` : lines[i];
      const update: StepUpdate = {
        step_number: i + 1,
        step_index: i,
        action: step ? describeStep(step) : judging ? 'judge_expected_result' : 'free_form',
        description: line,
        url: hide(session.url),
        selector: null,
        value: step && 'value' in step ? step.value : null,
        error: null,
        status: 'pending',
        timestamp: new Date().toISOString(),
        thoughts: {
          next_goal: lines[i + 1] ?? (expected && !judging ? 'Judge the expected result' : 'Finish the test'),
        },
        engine: step ? BUILTIN_ENGINE : interpreter?.engine,
      };
      const pending = { ...update };
      report(() => options.onStep?.(pending));
      recorder.stepStarted(i);
      let selector: string | null = null;
      let failure: string | null = null;
      try {
        const remaining = testDeadline - Date.now();
        if (remaining <= 0) throw new Error(`The test ran out of time (${testTimeout} ms)`);
        if (step) {
          const timeoutMs = Math.min(stepTimeout, remaining);
          selector = renewing
            ? await renewing.perform(step, i, lines[i])
            : await session.perform(step, { timeoutMs });
        } else if (interpreter) {
          const context = {
            signal: options.signal,
            timeoutMs: Math.min(options.freeFormTimeoutMs ?? 120_000, remaining),
            onThought: (thought: { next_goal: string; description: string }) => {
              const thinking = {
                ...pending,
                thoughts: { next_goal: thought.next_goal },
                description: thought.description,
              };
              report(() => options.onStep?.(thinking));
            },
          };
          const outcome = judging
            ? await interpreter.judge(session, expected, context)
            : await interpreter.perform(session, line, context);
          update.resolved_by = outcome.via;
          update.usage = outcome.usage;
          addUsage(usage, outcome.usage);
          if ('actions' in outcome) {
            selector = outcome.selector;
            update.description = `${line} — ${outcome.description}`;
            log(
              'info',
              `Step ${i + 1} (${via(outcome.via)}): ${line} → ${outcome.actions.join('; ') || 'no action'}`,
            );
          } else {
            update.description = `${line} — ${outcome.reason}`;
            if (!outcome.passed) throw new Error(`Expected result not met: ${outcome.reason}`);
            log('info', `Step ${i + 1} (${via(outcome.via)}): expected result met: ${outcome.reason}`);
          }
        }
        update.status = 'success';
        const element = step && session.lastElement && keyWithoutSecrets(session.lastElement, hide);
        if (element) update.element = element;
        if (step) log('info', `Step ${i + 1}: ${lines[i]}`);
      } catch (error) {
        if (error instanceof AbortedError) throw error;
        failure = cleanError(error);
        update.status = 'error';
        update.error = failure;
        recorder.stepFailed({ index: i, step, verb: update.action, line, error });
        if (error instanceof PageLeftError) {
          // The page went to what is not a web page: it was left for about:blank before any screenshot.
          selector = error.selector;
          log('error', `Step ${i + 1} failed: ${lines[i]} — ${failure} (${error.url.slice(0, 200)})`);
        } else {
          log('error', `Step ${i + 1} failed: ${line} — ${failure}`);
        }
      }
      visualChecks.push(...visualOutcomes(session.takeVisualChecks(), i, hide, log));
      update.selector = selector === null ? null : hide(selector);
      update.url = session.closed ? update.url : hide(session.url);
      if (update.error) update.error = hide(update.error);
      update.timestamp = new Date().toISOString();
      const shot = options.screenshots !== false && !session.closed ? capture(session, i, line) : undefined;
      report(async () => {
        const { taken, error } = (await shot) ?? {};
        if (error instanceof PageLeftError) {
          // The page went off the web while it was being photographed: the picture is thrown away, the
          // page is on about:blank, and the step that led there fails.
          const message = cleanError(error);
          update.status = 'error';
          update.error = message;
          update.url = 'about:blank';
          log('error', `Step ${i + 1} failed: ${line} — ${message} (${error.url.slice(0, 200)})`);
          lateFailure ??= message;
          recorder.stepFailed({ index: i, step, verb: update.action, line, error });
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
    recorder.stepFailed({ index: null, step: null, verb: 'case', line: '', error: undelivered ?? error });
    log('error', message);
    return finish(message.includes('closed') ? `The browser closed unexpectedly: ${message}` : message);
  } finally {
    // The trace is stopped (kept or dropped) while the context is open, the video read once it closed;
    // what they leave is added to the outcome the case answers (`ended`, returned above).
    if (session && ended && options.atEnd && !session.closed) {
      await options.atEnd(session, ended).catch(() => undefined);
    }
    if (session) await recorder.beforeClose(ended?.status !== 'passed');
    await session?.close();
    if (ended) {
      const stopped = options.signal?.aborted === true;
      const record = await recorder
        .complete({ status: ended.status, error: ended.error, stopped })
        .catch(() => ({}));
      Object.assign(ended, record);
    }
  }
}

function addUsage(total: InterpreterUsage, more: InterpreterUsage): void {
  total.model_calls += more.model_calls;
  total.input_tokens += more.input_tokens;
  total.output_tokens += more.output_tokens;
  total.cost_usd += more.cost_usd;
}

function via(how: 'model' | 'cache' | 'healed'): string {
  return how === 'cache'
    ? 'replayed from cache, no model call'
    : how === 'healed'
      ? 'self-healed: the cached actions broke'
      : 'resolved by the model';
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
