import { describe, expect, it } from 'vitest';
import { MAX_STORED_LOGS, sanitizeMetadata } from './sanitize';

describe('sanitizeMetadata (docs/PRODUCT.md#sessions: last 10 logs, no screenshots)', () => {
  it('keeps only the last 10 logs', () => {
    const logs = Array.from({ length: 25 }, (_, i) => ({ message: `log ${i}` }));
    const clean = sanitizeMetadata({ logs });
    expect(clean.logs).toHaveLength(MAX_STORED_LOGS);
    expect(clean.logs?.[0]).toEqual({ message: 'log 15' });
    expect(clean.logs?.[9]).toEqual({ message: 'log 24' });
  });

  it('removes screenshots and image data at any depth', () => {
    const clean = sanitizeMetadata({
      screenshots: ['data:image/png;base64,AAA'],
      executionResults: [{ status: 'passed', screenshots: ['x'], logs: [] }],
      logs: [{ step_number: 1, screenshot: { base64_data: 'AAA', width: 10 } }],
      testCases: [{ test_name: 'a' }],
    });
    expect(clean).toEqual({
      executionResults: [{ status: 'passed', logs: [] }],
      logs: [{ step_number: 1 }],
      testCases: [{ test_name: 'a' }],
    });
  });

  it('does not touch the original', () => {
    const metadata = { screenshots: ['x'], logs: Array.from({ length: 12 }, (_, i) => i) };
    sanitizeMetadata(metadata);
    expect(metadata.screenshots).toEqual(['x']);
    expect(metadata.logs).toHaveLength(12);
  });
});
