import { describe, expect, it } from 'vitest';
import { diagnosticsSummaryText } from './summary';

describe('the closed console and network', () => {
  it('counts console errors and failed requests of all', () => {
    expect(diagnosticsSummaryText({ console: 5, console_errors: 2, requests: 7, failed_requests: 1 })).toBe(
      '2 console errors · 1 of 7 requests failed',
    );
    expect(diagnosticsSummaryText({ console: 1, console_errors: 1, requests: 1, failed_requests: 0 })).toBe(
      '1 console error · 1 request',
    );
  });
  it('says when nothing was recorded', () => {
    expect(diagnosticsSummaryText(null)).toBe('none recorded');
  });
});
