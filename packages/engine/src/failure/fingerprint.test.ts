import { describe, expect, it } from 'vitest';
import { failureFingerprint, foldFailureText } from './fingerprint';

describe('foldFailureText', () => {
  it('folds numbers, uuids, hex ids, quoted values and URL queries, and lower-cases', () => {
    expect(
      foldFailureText(
        'Expected "Order k3m9pq confirmed" on http://127.0.0.1:4312/orders?id=77&t=9 (req 0f3a9c2e1b7d, trace 123e4567-e89b-12d3-a456-426614174000) after 2500 ms',
      ),
    ).toBe(
      'expected "<q>" on http://<n>.<n>.<n>.<n>:<n>/orders?<query> (req <hex>, trace <uuid>) after <n> ms',
    );
  });
});

describe('failureFingerprint', () => {
  it('gives two runs failing the same way one fingerprint, though their ids, numbers and quoted run ids differ', () => {
    const first = failureFingerprint(
      'click',
      'Place order',
      'No visible element matching "Place order a7k2m9" on http://127.0.0.1:41234/cart?session=5f2e8c0a9b1d after 10000 ms',
    );
    const second = failureFingerprint(
      'click',
      'Place order',
      'No visible element matching "Place order q8x3n4" on http://127.0.0.1:39871/cart?session=0b0b77aa11cc after 9000 ms',
    );
    expect(first).toMatch(/^[0-9a-f]{16}$/);
    expect(second).toBe(first);
  });

  it('tells different targets apart, and different errors', () => {
    const error = 'No visible element matching "x" on http://localhost/';
    expect(failureFingerprint('click', 'Place order', error)).not.toBe(
      failureFingerprint('click', 'Cancel order', error),
    );
    expect(failureFingerprint('click', 'Place order', error)).not.toBe(
      failureFingerprint(
        'click',
        'Place order',
        'Expected the URL to contain "x", but it is http://localhost/',
      ),
    );
  });
});
