import { describe, expect, it } from 'vitest';
import { allowedOrigins, navigationRefusal } from './llm-interpreter';

describe('where a free-form step may navigate', () => {
  it('allows the page it began on and every address the step names, with or without a scheme', () => {
    const allowed = allowedOrigins(
      'https://shop.test/cart?x=1',
      'Sign in at https://auth.shop.test/login, then open docs.shop.test and localhost:3000.',
    );
    expect([...allowed].sort()).toEqual(
      [
        'http://docs.shop.test',
        'http://localhost:3000',
        'https://auth.shop.test',
        'https://docs.shop.test',
        'https://localhost:3000',
        'https://shop.test',
      ].sort(),
    );
  });

  it('judges relative addresses against the page and names only the refused origin', () => {
    const allowed = allowedOrigins('https://shop.test/', 'Check the order summary');
    expect(navigationRefusal('/checkout', 'https://shop.test/cart', allowed)).toBeNull();
    expect(navigationRefusal('https://evil.test/c?d=SECRET', 'https://shop.test/', allowed)).toBe(
      'Refused to open https://evil.test: a free-form step may only open the site it runs on (https://shop.test) or an address the step itself names',
    );
    // Another port is another origin.
    expect(navigationRefusal('https://shop.test:8443/', 'https://shop.test/', allowed)).toMatch(/^Refused/);
    // Not a web address at all: left to the browser session, which refuses it with its own message.
    expect(navigationRefusal('file:///etc/passwd', 'https://shop.test/', allowed)).toBeNull();
  });
});
