import { describe, expect, it } from 'vitest';
import { parseStep, parseSteps, q, StepSyntaxError } from './step-language';

describe('step language', () => {
  it.each([
    ['Navigate to https://example.com/login', { verb: 'navigate', url: 'https://example.com/login' }],
    ['go to "/products.html"', { verb: 'navigate', url: '/products.html' }],
    ['Click "Sign in"', { verb: 'click', target: 'Sign in' }],
    ["click link 'Our history'", { verb: 'click', role: 'link', target: 'Our history' }],
    ['Fill "Email" with "qa@example.com"', { verb: 'fill', field: 'Email', value: 'qa@example.com' }],
    ['Type "shoes" into "Search products"', { verb: 'fill', field: 'Search products', value: 'shoes' }],
    ['Select "Billing" from "Topic"', { verb: 'select', option: 'Billing', field: 'Topic' }],
    ['Uncheck "Remember me"', { verb: 'check', target: 'Remember me', checked: false }],
    ['Press Enter', { verb: 'press', key: 'Enter' }],
    ['Press Enter in "Search products"', { verb: 'press', key: 'Enter', field: 'Search products' }],
    ['Wait 2 seconds', { verb: 'wait', ms: 2000 }],
    ['Wait 250 ms', { verb: 'wait', ms: 250 }],
    ['Wait for "Results"', { verb: 'waitForText', text: 'Results' }],
    ['Set viewport to 390x844', { verb: 'viewport', width: 390, height: 844 }],
    ['Verify text "Welcome back" is visible', { verb: 'verifyText', text: 'Welcome back', visible: true }],
    ['Verify text "Error" is not visible', { verb: 'verifyText', text: 'Error', visible: false }],
    [
      'Verify heading "Products" is visible',
      { verb: 'verifyElement', role: 'heading', name: 'Products', visible: true },
    ],
    ['Verify URL contains "account"', { verb: 'verifyUrl', text: 'account' }],
    ['Verify title contains "Acme"', { verb: 'verifyTitle', text: 'Acme' }],
    ['Verify field "Email" shows a validation error', { verb: 'verifyInvalid', field: 'Email' }],
    ['Verify no error message is visible', { verb: 'verifyNoErrors' }],
    ['Verify at least 3 rows are visible', { verb: 'verifyCount', role: 'row', atLeast: 3 }],
    ['Verify page has no console errors', { verb: 'verifyNoConsoleErrors' }],
    ['Verify all links work', { verb: 'verifyLinksWork' }],
    ['Verify all images have alt text', { verb: 'verifyImagesAlt' }],
    ['Verify no horizontal overflow', { verb: 'verifyNoOverflow' }],
    ['Verify no accessibility violations', { verb: 'verifyAccessibility' }],
  ])('parses %j', (line, step) => {
    expect(parseStep(line)).toEqual(step);
  });

  it('tolerates numbering, a final period and surrounding space', () => {
    expect(parseStep('  3. Click "Next".  ')).toEqual({ verb: 'click', target: 'Next' });
  });

  it('round-trips quotes inside arguments', () => {
    const value = 'He said "hi" \\ bye';
    expect(parseStep(`Fill "Message" with ${q(value)}`)).toEqual({ verb: 'fill', field: 'Message', value });
  });

  it('refuses a line it cannot parse, naming the line and the grammar', () => {
    expect(() => parseStep('Make the site better')).toThrow(StepSyntaxError);
    expect(() => parseStep('Make the site better')).toThrow(
      /Cannot understand the step "Make the site better".*STEP-LANGUAGE\.md/,
    );
    expect(() => parseSteps(['Click "A"', '', 'dance'])).toThrow(/"dance"/);
  });
});
