import type { TestCase } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { commandCoverage, coverageOf } from './command-coverage';

const testCase = (test_name: string, steps: string[], description = ''): TestCase =>
  ({ test_name, description, steps, category: 'Functional', priority: 'Medium' }) as TestCase;

describe('commandCoverage', () => {
  const cases = [
    testCase('Login page: an empty submit shows an error', ['Navigate to /login.html', 'Click "Sign in"']),
    testCase('Completing an item marks it completed', ['Check the checkbox in "Buy milk"']),
  ];

  it('names every clause: the tests whose words carry most of it, or why none does', () => {
    const coverage = commandCoverage('test the login form, clear completed and the weather', cases, {
      behaviours: [],
      engine: 'builtin (rule-based, no LLM)',
    });
    expect(coverage).toEqual([
      { clause: 'test the login form', tests: ['Login page: an empty submit shows an error'] },
      // "completed" alone is half of it: completing an item does not test clearing.
      { clause: 'clear completed', tests: [], reason: expect.stringMatching(/found no behaviour/) },
      { clause: 'the weather', tests: [], reason: expect.stringMatching(/^No test covers it/) },
    ]);
  });

  it('says when the run limits left out the only test a clause had', () => {
    const coverage = [
      { clause: 'the login form', tests: ['Login page: an empty submit shows an error'] },
      { clause: 'completing it', tests: ['Completing an item marks it completed'] },
    ];
    expect(coverageOf(coverage, cases.slice(1))).toEqual([
      { clause: 'the login form', tests: [], reason: expect.stringMatching(/left it out/) },
      coverage[1],
    ]);
  });
});
