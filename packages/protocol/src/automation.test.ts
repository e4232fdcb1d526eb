import { describe, expect, it } from 'vitest';
import {
  TestCaseListSchema,
  TestCaseSchema,
  TestRunDetailSchema,
  TestRunListQuerySchema,
  TestRunListSchema,
} from './automation';
import { SessionStatusSchema } from './sessions';

describe('TestCaseSchema', () => {
  it('folds the aliases testName/name and expectedResults into the spec names', () => {
    expect(
      TestCaseSchema.parse({ testName: 'Login works', expectedResults: 'Dashboard shown' }),
    ).toMatchObject({
      test_name: 'Login works',
      expected_result: 'Dashboard shown',
    });
    expect(TestCaseSchema.parse({ name: 'By name' }).test_name).toBe('By name');
  });

  it('fills the defaults (docs/PRODUCT.md#test-cases): category General, priority medium, no steps', () => {
    expect(TestCaseSchema.parse({ test_name: 't' })).toMatchObject({
      category: 'General',
      priority: 'medium',
      steps: [],
      description: '',
    });
  });

  it('turns a numeric id into a string', () => {
    expect(TestCaseSchema.parse({ id: 7, test_name: 't' }).id).toBe('7');
  });
});

describe('TestCaseListSchema (docs/PRODUCT.md#test-cases)', () => {
  it('wraps a single object in a list', () => {
    expect(TestCaseListSchema.parse({ test_name: 'only' })).toHaveLength(1);
  });
  it.each([null, undefined, 'text', 42])('turns %j into an empty list', (value) => {
    expect(TestCaseListSchema.parse(value)).toEqual([]);
  });
});

describe('SessionStatusSchema', () => {
  it('stores any case upper case (docs/PRODUCT.md#sessions)', () => {
    expect(SessionStatusSchema.parse('active')).toBe('ACTIVE');
    expect(SessionStatusSchema.parse('Cancelled')).toBe('CANCELLED');
    expect(SessionStatusSchema.safeParse('asleep').success).toBe(false);
  });
});

describe('test run list', () => {
  it('reads the query from strings, newest page first by default', () => {
    expect(TestRunListQuerySchema.parse({})).toEqual({ limit: 50, offset: 0 });
    expect(TestRunListQuerySchema.parse({ limit: '10', offset: '20', status: 'completed' })).toEqual({
      limit: 10,
      offset: 20,
      status: 'completed',
    });
    expect(TestRunListQuerySchema.safeParse({ limit: '0' }).success).toBe(false);
    expect(TestRunListQuerySchema.safeParse({ status: 'asleep' }).success).toBe(false);
  });

  it('describes a stored run with its results and what the server adds', () => {
    const run = {
      id: 'r1',
      session_id: null,
      user_id: 'u1',
      url: 'https://shop.example/',
      target_url: 'https://shop.example/',
      test_suite_name: 'Full suite for shop.example',
      test_cases: [],
      status: 'completed',
      started_at: '2026-01-01T00:00:00.000Z',
      completed_at: '2026-01-01T00:01:00.000Z',
      execution_time_seconds: 60,
      total_tests: 1,
      passed_tests: 1,
      failed_tests: 0,
      test_results: [
        {
          id: 'x1',
          test_case_id: null,
          test_case_name: 'Home loads',
          status: 'passed',
          execution_time: 1.2,
          error_message: null,
          steps: [],
          logs: [],
          screenshots: [],
          created_at: '2026-01-01T00:00:30.000Z',
        },
      ],
      screenshots_paths: [],
      execution_log: [],
      engine: 'builtin (rule-based, no LLM)',
      test_mode: 'full',
      command: null,
      created_at: '2026-01-01T00:00:00.000Z',
      usage: { model_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 },
    };
    expect(TestRunListSchema.parse([run])[0].test_results[0].test_case_name).toBe('Home loads');
    const { usage: _, ...withoutUsage } = run;
    expect(TestRunDetailSchema.safeParse(withoutUsage).success).toBe(false);
    expect(TestRunDetailSchema.safeParse({ ...run, test_results: [{ id: 'x' }] }).success).toBe(false);
  });
});
