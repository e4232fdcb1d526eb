import type { AutomationInProgressInput, StepUpdate, TestCase, TestMode } from '@argus/protocol';

/** Steps a late socket is shown at most (a run of hundreds of tests keeps its latest). */
export const KEPT_STEPS = 2000;

/** Generation messages a late socket is shown (the screen keeps as many). */
export const KEPT_MESSAGES = 6;

export const seconds = (ms: number) => Math.round(ms / 10) / 100;

/** What the work was asked for, as automation_in_progress repeats it. */
export interface AutomationWork {
  /**
   * The organization the work's records belong to (its project, its run rows, its screenshots):
   * the actor's organization, not the user who asked.
   */
  ownerId: string;
  url: string;
  test_mode: TestMode;
  command: string | null;
  session_id: string | null;
  test_cases: TestCase[];
}

interface KeptStep {
  test_name: string;
  step_data: StepUpdate;
  /** The stored screenshot's id once it is stored. */
  screenshot_id: string | null;
}

/**
 * Where one generation or run stands, kept as it goes so that a tab that connects meanwhile (a
 * reload, a second tab, a reconnect) is shown the work as if it had been there all along.
 */
export class AutomationProgress {
  /** The test run the work records into, once it has one. */
  runId: string | undefined;
  private messages: string[] = [];
  private readonly results: {
    test_name: string;
    status: 'passed' | 'failed';
    execution_time: number;
    error: string | null;
    flaky?: boolean;
    attempts?: number;
  }[] = [];
  private readonly active = new Set<string>();
  /** Each step's latest update (no image), by test and step index, oldest first. */
  private readonly steps = new Map<string, KeptStep>();

  constructor(readonly work: AutomationWork) {}

  /** A generation's progress line; the latest few are kept. */
  message(text: string): void {
    this.messages = [...this.messages, text].slice(-KEPT_MESSAGES);
  }

  testStarted(name: string): void {
    this.active.add(name);
  }

  testFinished(
    name: string,
    result: { passed: boolean; executionTime: number; error: string | null; attempts?: number },
  ): void {
    this.active.delete(name);
    const attempts = result.attempts ?? 1;
    this.results.push({
      test_name: name,
      status: result.passed ? 'passed' : 'failed',
      execution_time: result.executionTime,
      error: result.error,
      ...(attempts > 1 ? { attempts, ...(result.passed ? { flaky: true } : {}) } : {}),
    });
  }

  /** A failed test runs again (docs/HISTORY.md#retries): its failed attempt's steps are dropped. */
  testRetrying(name: string): void {
    for (const [key, step] of this.steps) if (step.test_name === name) this.steps.delete(key);
  }

  /**
   * A step's latest state, without its image (the image is stored; its size stays for the viewer).
   * Returns a setter for the stored screenshot's id, for when its write is done.
   */
  step(testName: string, update: StepUpdate): (screenshotId: string | null) => void {
    const kept: KeptStep = {
      test_name: testName,
      step_data: {
        ...update,
        screenshot: update.screenshot
          ? { width: update.screenshot.width, height: update.screenshot.height }
          : null,
      },
      screenshot_id: null,
    };
    const key = `${testName}#${update.step_index ?? update.step_number}`;
    this.steps.delete(key);
    this.steps.set(key, kept);
    if (this.steps.size > KEPT_STEPS) this.steps.delete(this.steps.keys().next().value as string);
    return (screenshotId) => {
      kept.screenshot_id = screenshotId;
    };
  }

  /**
   * What automation_in_progress says, or null before a run has its test run; stored screenshots'
   * links are signed as they are handed out (`screenshotUrl`).
   */
  snapshot(
    kind: 'generating' | 'running',
    startedAt: number,
    screenshotUrl: (screenshotId: string) => string,
  ): AutomationInProgressInput | null {
    const { url, test_mode, command, session_id, test_cases } = this.work;
    const common = { url, test_mode, command, session_id };
    if (kind === 'generating') return { kind, ...common, messages: [...this.messages] };
    if (!this.runId) return null;
    return {
      kind,
      ...common,
      test_run_id: this.runId,
      test_cases,
      total_tests: test_cases.length,
      results: [...this.results],
      active_tests: [...this.active],
      steps: [...this.steps.values()].map(({ screenshot_id, ...step }) => ({
        ...step,
        screenshot_url: screenshot_id ? screenshotUrl(screenshot_id) : null,
      })),
      elapsed: seconds(Date.now() - startedAt),
    };
  }
}
