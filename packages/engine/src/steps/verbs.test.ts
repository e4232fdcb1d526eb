import { STEP_GRAMMAR, StepSchema } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { VERBS } from './verbs';

describe('the verb table', () => {
  it('has one entry per verb of the step language, its parser entry the one @argus/protocol declares', () => {
    const verbs = StepSchema.options.map((option) => option.shape.verb.value);
    expect(Object.keys(VERBS).sort()).toEqual([...verbs].sort());
    for (const verb of verbs) {
      expect(VERBS[verb].grammar, verb).toBe(STEP_GRAMMAR[verb]);
      expect(VERBS[verb].summary, verb).not.toBe('');
    }
  });
});
