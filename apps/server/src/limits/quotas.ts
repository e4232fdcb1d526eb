import type { Config } from '../config';
import { AppError } from '../errors';

/**
 * Per-user quotas (configuration in config.ts, codes in the protocol's error catalogue):
 * MAX_CASES_PER_RUN, MAX_STEPS_PER_CASE, MAX_STORED_BYTES_PER_USER and MAX_BROWSERS_PER_USER.
 * Each refusal names the limit and the setting, so an administrator knows what to raise.
 */

type Limits = Pick<Config, 'maxCasesPerRun' | 'maxStepsPerCase'>;

export interface RunSizeProblem {
  code: 'TOO_MANY_TEST_CASES' | 'TOO_MANY_STEPS';
  message: string;
  /** Where in the list of cases: `[]` for the list, `[i, 'steps']` for one case's steps. */
  path: (string | number)[];
}

/** Why a run of these cases is too large, or null. */
export function runSizeProblem(
  cases: readonly { test_name: string; steps: readonly string[] }[],
  limits: Limits,
): RunSizeProblem | null {
  if (cases.length > limits.maxCasesPerRun) {
    return {
      code: 'TOO_MANY_TEST_CASES',
      message: `A run can hold at most ${limits.maxCasesPerRun} test cases (MAX_CASES_PER_RUN); this one has ${cases.length}.`,
      path: [],
    };
  }
  const index = cases.findIndex((c) => c.steps.length > limits.maxStepsPerCase);
  if (index < 0) return null;
  const long = cases[index];
  return {
    code: 'TOO_MANY_STEPS',
    message: `A test case can have at most ${limits.maxStepsPerCase} steps (MAX_STEPS_PER_CASE); "${long.test_name.slice(0, 200)}" has ${long.steps.length}.`,
    path: [index, 'steps'],
  };
}

/** Refuses an over-large run: a socket error with the code, or over HTTP a 422 pointing at the field. */
export function checkRunSize(
  cases: readonly { test_name: string; steps: readonly string[] }[],
  limits: Limits,
  http?: { loc: (string | number)[] },
): void {
  const problem = runSizeProblem(cases, limits);
  if (!problem) return;
  if (!http) throw new AppError(problem.code, problem.message);
  throw new AppError(problem.code, [
    { loc: [...http.loc, ...problem.path], msg: problem.message, type: problem.code.toLowerCase() },
  ]);
}

/** 1073741824 → '1 GiB', 1536 → '1.5 KiB'. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 ? String(value) : String(Math.round(value * 10) / 10);
  return `${shown} ${units[unit]}`;
}

/** The refusal for a screenshot (upload or capture) that would pass the user's storage quota. */
export function storageQuotaError(usedBytes: number, limitBytes: number, adding?: number): AppError {
  const what =
    adding === undefined
      ? 'Your stored screenshots have used up your storage quota'
      : `This screenshot (${formatBytes(adding)}) would take your stored screenshots past your storage quota`;
  return new AppError(
    'STORAGE_QUOTA_EXCEEDED',
    `${what} of ${formatBytes(limitBytes)} (MAX_STORED_BYTES_PER_USER; ${formatBytes(usedBytes)} used). ` +
      'Delete test runs you no longer need to make room.',
  );
}

/**
 * MAX_BROWSERS_PER_USER: how many browser contexts each user's work holds at once. Work takes what it
 * needs up front (a generation one, a run one per test it runs in parallel) and gives it back when it
 * ends; work that finds none of the user's browsers free is refused and does not start.
 */
export class BrowserBudget {
  private readonly held = new Map<string, number>();

  constructor(readonly perUser: number) {}

  inUse(userId: string): number {
    return this.held.get(userId) ?? 0;
  }

  /** Takes up to `wanted` browsers (at least one), or throws BROWSER_LIMIT_REACHED. */
  take(userId: string, wanted: number): { count: number; release: () => void } {
    const inUse = this.inUse(userId);
    const free = this.perUser - inUse;
    if (free < 1) {
      throw new AppError(
        'BROWSER_LIMIT_REACHED',
        `All ${this.perUser} browser${this.perUser === 1 ? '' : 's'} you may use at once ${this.perUser === 1 ? 'is' : 'are'} busy (MAX_BROWSERS_PER_USER). ` +
          'Wait for your test run or generation to finish, or stop it, then try again.',
      );
    }
    const count = Math.max(1, Math.min(wanted, free));
    this.held.set(userId, inUse + count);
    let released = false;
    return {
      count,
      release: () => {
        if (released) return;
        released = true;
        const left = this.inUse(userId) - count;
        if (left > 0) this.held.set(userId, left);
        else this.held.delete(userId);
      },
    };
  }
}
