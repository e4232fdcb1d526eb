import { describe, expect, it } from 'vitest';
import { TestCaseListSchema, TestCaseSchema } from './automation';
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

  it('fills the defaults of spec §3: category General, priority medium, no steps', () => {
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

describe('TestCaseListSchema (spec §4)', () => {
  it('wraps a single object in a list', () => {
    expect(TestCaseListSchema.parse({ test_name: 'only' })).toHaveLength(1);
  });
  it.each([null, undefined, 'text', 42])('turns %j into an empty list', (value) => {
    expect(TestCaseListSchema.parse(value)).toEqual([]);
  });
});

describe('SessionStatusSchema', () => {
  it('stores any case upper case (spec §4)', () => {
    expect(SessionStatusSchema.parse('active')).toBe('ACTIVE');
    expect(SessionStatusSchema.parse('Cancelled')).toBe('CANCELLED');
    expect(SessionStatusSchema.safeParse('asleep').success).toBe(false);
  });
});
