import { describe, expect, it } from 'vitest';
import { stepEffect, strayedTo } from './effect';

const steps = ['Navigate to http://a.test/', 'Click link "Everything"', 'Verify URL contains "#/"'];
const lastPassing = {
  steps: [
    { index: 0, url: 'http://a.test/' },
    { index: 1, url: 'http://a.test/#/' },
    { index: 2, url: 'http://a.test/#/' },
  ],
};

describe('strayedTo', () => {
  it('names where a replacement led when the step led elsewhere in the last passing run, whatever the origin', () => {
    const effect = stepEffect(steps, 1, lastPassing);
    expect(effect.ledTo).toBe('http://a.test/#/');
    // A view's radio "Unread" passes 'URL contains "#/"' too, but is not what the step did.
    expect(strayedTo('http://127.0.0.1:4000/#/unread', effect)).toBe('/#/unread');
    expect(strayedTo('http://127.0.0.1:4000/#/', effect)).toBeNull();
  });

  it('says nothing when the step led nowhere new, or nothing is known of the last passing run', () => {
    expect(strayedTo('http://a.test/#/unread', stepEffect(steps, 1, null))).toBeNull();
    const stayed = { steps: lastPassing.steps.map((s) => ({ ...s, url: 'http://a.test/' })) };
    expect(strayedTo('http://a.test/#/unread', stepEffect(steps, 1, stayed))).toBeNull();
    expect(strayedTo(undefined, stepEffect(steps, 1, lastPassing))).toBeNull();
  });
});
