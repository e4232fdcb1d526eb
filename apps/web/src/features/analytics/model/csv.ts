// CSV export of every chart's and list's numbers (docs/HISTORY.md), built in the browser: RFC 4180
// quoting (a field with a comma, a quote or a line break is quoted, quotes doubled), CRLF line ends,
// and a text cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR) is prefixed with
// an apostrophe (OWASP's advice on CSV injection): suite and step names come from tested sites.

export type Cell = string | number | null;

export interface Table {
  columns: readonly string[];
  rows: readonly (readonly Cell[])[];
}

const FORMULA_START = /^[=+\-@\t\r]/;

function field(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The table as CSV text: a header line, then a line per row. */
export function toCsv(table: Table): string {
  const lines = [table.columns, ...table.rows].map((row) => row.map(field).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** 'analytics-pass-rate-2026-10-28-to-2026-11-26.csv'. */
export function csvFileName(name: string, from: string, to: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `analytics-${slug || 'data'}-${from}-to-${to}.csv`;
}
