import { describe, expect, it } from 'vitest';
import { caseSteps, findingTab, namedByFinding, stepHeading } from './case-steps';

const update = (step: Record<string, unknown>) => ({
  action: 'click',
  status: 'pending',
  timestamp: '2026-11-28T10:00:00.000Z',
  ...step,
});

describe('caseSteps', () => {
  it('folds each step’s updates into one line: the first description, the last status and error', () => {
    const steps = caseSteps([
      update({ step_number: 1, step_index: 0, description: 'Navigate to /' }),
      update({ step_number: 1, step_index: 0, status: 'success', description: 'Navigate to / — done' }),
      update({ step_number: 2, step_index: 1, description: 'Click "Place order"' }),
      update({ step_number: 2, step_index: 1, status: 'error', error: 'Timed out' }),
    ]);
    expect(steps).toEqual([
      { index: 0, line: 'Navigate to /', status: 'success', error: null },
      { index: 1, line: 'Click "Place order"', status: 'error', error: 'Timed out' },
    ]);
  });

  it('takes the 1-based step number when an older run sent no index, and skips unreadable updates', () => {
    const steps = caseSteps([{ nonsense: true }, update({ step_number: 3, status: 'success' })]);
    expect(steps).toEqual([{ index: 2, line: 'click', status: 'success', error: null }]);
  });
});

describe('stepHeading', () => {
  const steps = caseSteps([update({ step_number: 1, step_index: 0, description: 'Navigate to /' })]);
  it('names the step by its 1-based number and its line', () => {
    expect(stepHeading(0, steps)).toBe('Step 1: Navigate to /');
    expect(stepHeading(4, steps)).toBe('Step 5');
  });
  it('names what came before any step', () => {
    expect(stepHeading(null, steps)).toBe('Before the first step');
  });
});

describe('a page-health finding and its entries', () => {
  it('sends a console check to the console and a failed-request check to the network, nothing else', () => {
    expect(findingTab('Console error on http://shop.test/: TypeError: x is undefined')).toBe('console');
    expect(findingTab('Failed request: GET http://shop.test/api/cart answered 500')).toBe('network');
    expect(findingTab('Expected the text "Done" to be visible')).toBeNull();
    expect(findingTab(null)).toBeNull();
  });

  it('names the entries the error quotes: the console text, the request URL', () => {
    const error = 'Failed request: GET http://shop.test/api/cart answered 500';
    expect(namedByFinding(error, { url: 'http://shop.test/api/cart' })).toBe(true);
    expect(namedByFinding(error, { url: 'http://shop.test/api/user' })).toBe(false);
    expect(namedByFinding('Console error on http://a/: boom', { text: 'boom' })).toBe(true);
    expect(namedByFinding('Console error on http://a/: boom', { text: '' })).toBe(false);
  });
});
