import { describe, expect, it } from 'vitest';
import { similarity } from './match';
import { isQuestion, parseIntent, splitClauses } from './phrases';

describe('splitClauses', () => {
  it('splits on then, commas, semicolons, sentences and lines, never inside quotes', () => {
    expect(splitClauses('go to products then search for shoes')).toEqual([
      'go to products',
      'search for shoes',
    ]);
    expect(splitClauses('open search, and then type "a, b; then c" into search; press Enter')).toEqual([
      'open search',
      'type "a, b; then c" into search',
      'press Enter',
    ]);
    expect(splitClauses('Go to the login page. Fill the email with qa@example.com.')).toEqual([
      'Go to the login page',
      'Fill the email with qa@example.com',
    ]);
    expect(splitClauses('Click "Sign in"\nVerify text "Welcome" is visible')).toEqual([
      'Click "Sign in"',
      'Verify text "Welcome" is visible',
    ]);
  });
});

describe('parseIntent', () => {
  it.each([
    ['Click link "Pricing"', { kind: 'step', step: { verb: 'click', role: 'link', target: 'Pricing' } }],
    ['go to the pricing page', { kind: 'goto', target: 'pricing' }],
    ['open pricing', { kind: 'goto', target: 'pricing' }],
    ['navigate to pricing', { kind: 'goto', target: 'pricing' }],
    [
      'go to https://example.com/a',
      { kind: 'step', step: { verb: 'navigate', url: 'https://example.com/a' } },
    ],
    ['go to example.com', { kind: 'step', step: { verb: 'navigate', url: 'https://example.com' } }],
    ['search for shoes', { kind: 'search', query: 'shoes' }],
    ['click Sign in', { kind: 'click', target: 'Sign in' }],
    ['press the Sign in button', { kind: 'click', target: 'Sign in', role: 'button' }],
    ['tap on Add to cart', { kind: 'click', target: 'Add to cart' }],
    ['can you click on the "Search" button?', { kind: 'click', target: 'Search', role: 'button' }],
    ['scroll down', { kind: 'scroll', direction: 'down' }],
    ['scroll up a bit', { kind: 'scroll', direction: 'up' }],
    ['scroll to the bottom', { kind: 'step', step: { verb: 'scroll', target: 'bottom' } }],
    [
      'scroll all the way up to the top of the page',
      { kind: 'step', step: { verb: 'scroll', target: 'top' } },
    ],
    ['fill the email with qa@example.com', { kind: 'fill', field: 'email', value: 'qa@example.com' }],
    ['type qa@example.com into email', { kind: 'fill', field: 'email', value: 'qa@example.com' }],
    ["enter 'x' in the search box", { kind: 'fill', field: 'search', value: 'x' }],
    ["check 'Remember me'", { kind: 'step', step: { verb: 'check', target: 'Remember me', checked: true } }],
    ['uncheck Remember me', { kind: 'check', target: 'Remember me', checked: false }],
    ["select 'Large' from size", { kind: 'select', option: 'Large', field: 'size' }],
    ['go back', { kind: 'step', step: { verb: 'back' } }],
    ['reload', { kind: 'step', step: { verb: 'reload' } }],
    ['refresh the page please', { kind: 'step', step: { verb: 'reload' } }],
    ['press enter', { kind: 'step', step: { verb: 'press', key: 'Enter' } }],
    ['press Escape', { kind: 'step', step: { verb: 'press', key: 'Escape' } }],
    ['hit esc', { kind: 'step', step: { verb: 'press', key: 'Escape' } }],
    ['hover over Products', { kind: 'hover', target: 'Products' }],
    ['wait 2 seconds', { kind: 'step', step: { verb: 'wait', ms: 2000 } }],
    ['wait a second', { kind: 'step', step: { verb: 'wait', ms: 1000 } }],
    ['what is on this page?', { kind: 'ask', question: 'what is on this page?' }],
    ['is there a sign in button?', { kind: 'ask', question: 'is there a sign in button?' }],
  ])('%s', (clause, intent) => {
    expect(parseIntent(clause)).toEqual(intent);
  });

  it('reads nothing into what no rule knows', () => {
    expect(parseIntent('make the site faster')).toBeNull();
    expect(parseIntent('buy the cheapest shirt')).toBeNull();
  });
});

describe('isQuestion', () => {
  it('tells questions from requests phrased as questions', () => {
    expect(isQuestion('where am I?')).toBe(true);
    expect(isQuestion('what links are there')).toBe(true);
    expect(isQuestion('could you open the login page?')).toBe(false);
    expect(isQuestion('go to products')).toBe(false);
  });
});

describe('similarity', () => {
  it('prefers the same text, then a name holding the phrase, then shared words', () => {
    expect(similarity('Products', 'products')).toBe(1);
    expect(similarity('Sign in to your account', 'sign in')).toBeGreaterThan(0.6);
    expect(similarity('Browse products', 'products')).toBeLessThan(similarity('Products', 'products'));
    expect(similarity('Contact', 'pricing')).toBe(0);
  });
});
