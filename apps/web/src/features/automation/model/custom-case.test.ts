import { describe, expect, it } from 'vitest';
import { checkCustomCase, isCustomCase, stepLines } from './custom-case';

const url = 'http://127.0.0.1:4400/';

describe('custom test cases', () => {
  it('builds a case from a name and steps in the step language', () => {
    const check = checkCustomCase(
      {
        name: '  Search for shoes ',
        description: 'Finds the trail shoes',
        steps:
          'Navigate to /search.html\n\n1. Fill "Search" with "shoes"\n- Press Enter\nVerify text "Trail Running Shoes" is visible',
      },
      ['Home page loads'],
      url,
      'custom-1',
    );
    expect(check.nameProblem).toBeNull();
    expect(check.stepsProblem).toBeNull();
    expect(check.testCase).toMatchObject({
      id: 'custom-1',
      test_name: 'Search for shoes',
      description: 'Finds the trail shoes',
      category: 'Custom',
      priority: 'medium',
      url,
      steps: [
        'Navigate to /search.html',
        'Fill "Search" with "shoes"',
        'Press Enter',
        'Verify text "Trail Running Shoes" is visible',
      ],
    });
    expect(isCustomCase(check.testCase!)).toBe(true);
  });

  it('names each line that is not a step, by its line number, and builds nothing', () => {
    const check = checkCustomCase(
      {
        name: 'Broken',
        description: '',
        steps: 'Navigate to /\nClik the button\n\nVerify title contains "Acme"\nmake coffee',
      },
      [],
      url,
      'custom-2',
    );
    expect(check.badLines).toEqual([
      { line: 2, text: 'Clik the button' },
      { line: 5, text: 'make coffee' },
    ]);
    expect(check.stepsProblem).toBe('2 lines are not in the step language');
    expect(check.testCase).toBeNull();
  });

  it('wants a name that is not taken, and at least one step', () => {
    expect(checkCustomCase({ name: ' ', description: '', steps: '' }, [], url, 'c').nameProblem).toBe(
      'Give the test a name',
    );
    expect(
      checkCustomCase(
        { name: 'Home page loads', description: '', steps: 'Reload' },
        ['Home page loads'],
        url,
        'c',
      ).nameProblem,
    ).toBe('A test with this name already exists');
    expect(checkCustomCase({ name: 'x', description: '', steps: '\n \n' }, [], url, 'c').stepsProblem).toBe(
      'Write at least one step',
    );
    expect(
      checkCustomCase({ name: 'x', description: '', steps: 'Reload\n'.repeat(101) }, [], url, 'c')
        .stepsProblem,
    ).toBe('At most 100 steps');
  });

  it('keeps only a URL the case can open (the URL field may hold something half-typed)', () => {
    const draft = { name: 'x', description: '', steps: 'Reload' };
    expect(checkCustomCase(draft, [], url, 'c').testCase?.url).toBe(url);
    for (const typed of ['example.', 'javascript:alert(1)']) {
      const check = checkCustomCase(draft, [], typed, 'c');
      expect(check.testCase).not.toBeNull();
      expect(check.testCase?.url).toBeUndefined();
    }
  });

  it('reads typed lists: trims, drops blanks and list markers', () => {
    expect(stepLines(' 2) Reload \n\n* Go back\n• Take a screenshot')).toEqual([
      { line: 1, text: 'Reload' },
      { line: 3, text: 'Go back' },
      { line: 4, text: 'Take a screenshot' },
    ]);
  });

  it('generated cases are not custom ones', () => {
    expect(isCustomCase({ id: 'gen-1', test_name: 'x', steps: [], category: 'Smoke' } as never)).toBe(false);
  });
});
