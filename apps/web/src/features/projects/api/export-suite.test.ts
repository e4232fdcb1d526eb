import { describe, expect, it } from 'vitest';
import { attachmentName, exportSummary } from './export-suite';

describe('the Playwright export in the suites panel', () => {
  it('says how many cases were exported and how many lines were left as TODO comments', () => {
    expect(exportSummary({ tests: 4, todo: 0 })).toBe('Exported 4 test cases; 0 lines left as TODO comments');
    expect(exportSummary({ tests: 1, todo: 1 })).toBe('Exported 1 test case; 1 line left as TODO comments');
  });

  it('downloads under the name the server gives the zip', () => {
    expect(attachmentName('attachment; filename="Checkout-smoke-playwright.zip"', 'x.zip')).toBe(
      'Checkout-smoke-playwright.zip',
    );
    expect(attachmentName(null, 'x.zip')).toBe('x.zip');
  });
});
