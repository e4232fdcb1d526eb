import { describe, expect, it } from 'vitest';
import { csvFileName, toCsv } from './csv';

describe('CSV export', () => {
  it('quotes commas, quotes and line breaks, leaves plain cells alone, ends lines with CRLF', () => {
    const csv = toCsv({
      columns: ['Test', 'Runs', 'Note'],
      rows: [
        ['Checkout, guest', 3, 'says "hi"'],
        ['two\nlines', 0.5, null],
      ],
    });
    expect(csv).toBe('Test,Runs,Note\r\n"Checkout, guest",3,"says ""hi"""\r\n"two\nlines",0.5,\r\n');
  });

  it('defuses a text cell a spreadsheet would run as a formula, but not a negative number', () => {
    const csv = toCsv({ columns: ['a', 'b', 'c'], rows: [['=HYPERLINK("x")', '@SUM(A1)', -2]] });
    expect(csv.split('\r\n')[1]).toBe(`"'=HYPERLINK(""x"")",'@SUM(A1),-2`);
  });

  it('names the file after the table and the range', () => {
    expect(csvFileName('Flaky tests', '2026-10-28', '2026-11-26')).toBe(
      'analytics-flaky-tests-2026-10-28-to-2026-11-26.csv',
    );
  });
});
