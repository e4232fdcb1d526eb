import { describe, expect, it } from 'vitest';
import { loadConfig, parseRegistration } from '../config';
import { AppError } from '../errors';
import { BrowserBudget, checkRunSize, formatBytes, runSizeProblem, storageQuotaError } from './quotas';

const limits = { maxCasesPerRun: 3, maxStepsPerCase: 2 };
const cases = (n: number, steps = 1) =>
  Array.from({ length: n }, (_, i) => ({ test_name: `Case ${i + 1}`, steps: Array(steps).fill('Reload') }));

describe('run size (MAX_CASES_PER_RUN, MAX_STEPS_PER_CASE)', () => {
  it('lets a run up to the limits through', () => {
    expect(runSizeProblem(cases(3, 2), limits)).toBeNull();
  });
  it('names the limit, the setting and the count', () => {
    expect(runSizeProblem(cases(4), limits)).toEqual({
      code: 'TOO_MANY_TEST_CASES',
      message: 'A run can hold at most 3 test cases (MAX_CASES_PER_RUN); this one has 4.',
      path: [],
    });
    const long = [...cases(1), { test_name: 'Checkout', steps: ['a', 'b', 'c'] }];
    expect(runSizeProblem(long, limits)).toEqual({
      code: 'TOO_MANY_STEPS',
      message: 'A test case can have at most 2 steps (MAX_STEPS_PER_CASE); "Checkout" has 3.',
      path: [1, 'steps'],
    });
  });
  it('throws a socket error, or a 422 pointing at the field', () => {
    expect(() => checkRunSize(cases(4), limits)).toThrow(
      expect.objectContaining({ code: 'TOO_MANY_TEST_CASES', status: 422 }),
    );
    try {
      checkRunSize([{ test_name: 'x', steps: ['a', 'b', 'c'] }], limits, { loc: ['body', 'test_cases'] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).detail).toEqual([
        {
          loc: ['body', 'test_cases', 0, 'steps'],
          msg: 'A test case can have at most 2 steps (MAX_STEPS_PER_CASE); "x" has 3.',
          type: 'too_many_steps',
        },
      ]);
    }
  });
});

describe('storage quota (MAX_STORED_BYTES_PER_USER)', () => {
  it('writes sizes for people', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(1024 ** 3)).toBe('1 GiB');
  });
  it('says what is used, what the limit is, and what to do', () => {
    const error = storageQuotaError(1000, 1024, 100);
    expect(error).toMatchObject({ code: 'STORAGE_QUOTA_EXCEEDED', status: 413 });
    expect(error.message).toBe(
      'This screenshot (100 bytes) would take your stored screenshots past your storage quota of 1 KiB ' +
        '(MAX_STORED_BYTES_PER_USER; 1000 bytes used). Delete test runs you no longer need to make room.',
    );
  });
});

describe('BrowserBudget (MAX_BROWSERS_PER_USER)', () => {
  it('grants up to the per-user limit, per user, and refuses once all are held', () => {
    const budget = new BrowserBudget(2);
    const run = budget.take('alice', 4);
    expect(run.count).toBe(2);
    expect(() => budget.take('alice', 1)).toThrow(
      expect.objectContaining({
        code: 'BROWSER_LIMIT_REACHED',
        status: 429,
        message:
          'All 2 browsers you may use at once are busy (MAX_BROWSERS_PER_USER). Wait for your test run or generation to finish, or stop it, then try again.',
      }),
    );
    // Another user is not affected.
    expect(budget.take('bob', 1).count).toBe(1);
    run.release();
    run.release(); // twice is harmless
    expect(budget.inUse('alice')).toBe(0);
  });
  it('gives what is left: the second of two gets one', () => {
    const budget = new BrowserBudget(2);
    const first = budget.take('alice', 1);
    expect(budget.take('alice', 2).count).toBe(1);
    expect(() => budget.take('alice', 1)).toThrow(AppError);
    first.release();
    expect(budget.inUse('alice')).toBe(1);
  });
});

describe('configuration of the quotas', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      maxCasesPerRun: 100,
      maxStepsPerCase: 100,
      maxStoredBytesPerUser: 1024 ** 3,
      maxBrowsersPerUser: 2,
      registration: 'open',
    });
  });
  it('reads the environment, and refuses nonsense', () => {
    const config = loadConfig({
      MAX_CASES_PER_RUN: '5',
      MAX_STEPS_PER_CASE: '7',
      MAX_STORED_BYTES_PER_USER: '1048576',
      MAX_BROWSERS_PER_USER: '0',
      REGISTRATION: 'Closed',
    });
    expect(config).toMatchObject({
      maxCasesPerRun: 5,
      maxStepsPerCase: 7,
      maxStoredBytesPerUser: 1024 * 1024,
      maxBrowsersPerUser: 1,
      registration: 'closed',
    });
    expect(() => loadConfig({ MAX_CASES_PER_RUN: 'lots' })).toThrow(/MAX_CASES_PER_RUN/);
    expect(() => parseRegistration('invite-only')).toThrow(/REGISTRATION must be 'open' or 'closed'/);
  });
});
