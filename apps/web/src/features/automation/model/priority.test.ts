import { describe, expect, it } from 'vitest';
import { priorityLabel, priorityTone, stepPreview } from './priority';

describe('priority colours (docs/PRODUCT.md#test-cases)', () => {
  it('paints high and critical red, medium orange, low green, anything else medium', () => {
    expect(priorityTone('high')).toBe('red');
    expect(priorityTone('Critical')).toBe('red');
    expect(priorityTone('medium')).toBe('orange');
    expect(priorityTone('low')).toBe('green');
    expect(priorityTone(undefined)).toBe('orange');
    expect(priorityTone('urgent-ish')).toBe('orange');
    expect(priorityLabel('')).toBe('Medium');
    expect(priorityLabel('HIGH')).toBe('High');
  });
});

describe('stepPreview (docs/PRODUCT.md#test-cases: first 3 steps, then "... and N more steps")', () => {
  it('shows up to three steps and counts the rest', () => {
    expect(stepPreview(['a', 'b'])).toEqual({ shown: ['a', 'b'], more: null });
    expect(stepPreview(['a', 'b', 'c'])).toEqual({ shown: ['a', 'b', 'c'], more: null });
    expect(stepPreview(['a', 'b', 'c', 'd', 'e'])).toEqual({
      shown: ['a', 'b', 'c'],
      more: '... and 2 more steps',
    });
  });
});
