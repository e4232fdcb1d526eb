import { parseStep } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { STEP_LANGUAGE_REFERENCE } from './llm-planner';

/** The forms the planner's prompt teaches the model, with their placeholders filled in. */
function forms(): string[] {
  return STEP_LANGUAGE_REFERENCE.split('\n')
    .slice(1)
    .flatMap((line) => line.split(' | '))
    .map((form) =>
      form
        .replace(/<url>/g, 'https://shop.test/')
        .replace(/<[^>]+>/g, 'Name')
        .trim(),
    );
}

describe('the step language reference the planner shows the model', () => {
  it('teaches only forms the step language parses', () => {
    const refused = forms().filter((form) => {
      try {
        parseStep(form);
        return false;
      } catch {
        return true;
      }
    });
    expect(forms().length).toBeGreaterThan(20);
    expect(refused).toEqual([]);
  });
});
