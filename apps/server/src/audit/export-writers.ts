import { AUDIT_EXPORT_COLUMNS, type AuditEntry } from '@argus/protocol';

// The audit log's export (GET /api/audit/export): CSV for a spreadsheet, JSON for a program. Both are
// written a page at a time from the rows' stream, so an export of any length holds one page.

type Column = (typeof AUDIT_EXPORT_COLUMNS)[number];

/** A cell a spreadsheet would read as a formula (=, +, -, @, or a tab or return before one). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break, quotes doubled.
 * A cell a spreadsheet would run as a formula is prefixed with `'` (OWASP's CSV injection advice):
 * an actor's name, a suite's name or a browser's user agent is text someone else chose.
 */
export function csvCell(value: string | null): string {
  if (value === null || value === '') return '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function cellOf(entry: AuditEntry, column: Column): string | null {
  if (column === 'detail') return Object.keys(entry.detail).length > 0 ? JSON.stringify(entry.detail) : null;
  return entry[column];
}

/** The CSV's lines: the header, then one line per row (CRLF, as RFC 4180 has it). */
export async function* csvLines(pages: AsyncIterable<AuditEntry[]>): AsyncGenerator<string> {
  yield `${AUDIT_EXPORT_COLUMNS.join(',')}\r\n`;
  for await (const page of pages) {
    yield page
      .map((entry) => `${AUDIT_EXPORT_COLUMNS.map((c) => csvCell(cellOf(entry, c))).join(',')}\r\n`)
      .join('');
  }
}

/** A JSON array of the rows, each with the export's columns in order. */
export async function* jsonLines(pages: AsyncIterable<AuditEntry[]>): AsyncGenerator<string> {
  yield '[';
  let first = true;
  for await (const page of pages) {
    const lines = page.map((entry) => {
      const ordered = Object.fromEntries(AUDIT_EXPORT_COLUMNS.map((c) => [c, entry[c]]));
      const line = `${first ? '' : ','}\n${JSON.stringify(ordered)}`;
      first = false;
      return line;
    });
    yield lines.join('');
  }
  yield first ? ']\n' : '\n]\n';
}
