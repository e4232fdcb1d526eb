import type { ReactNode } from 'react';
import type { Cell, Table } from '../model/csv';

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A cell as read on screen: an instant in local time (the CSV keeps ISO 8601), nothing as a dash. */
export function displayCell(cell: Cell): string | number {
  if (cell === null) return '–';
  if (typeof cell === 'string' && INSTANT.test(cell)) {
    const date = new Date(cell);
    if (!Number.isNaN(date.getTime())) return WHEN.format(date);
  }
  return cell;
}

/**
 * A real table of a chart's or list's numbers, scrolling sideways on a narrow screen. `render` may
 * draw a cell richer than its CSV text (a link to a run).
 */
export function DataTable({
  table,
  caption,
  render,
}: {
  table: Table;
  caption: string;
  render?: (row: number, column: number, cell: Cell) => ReactNode;
}) {
  return (
    <section
      className="max-h-96 max-w-full overflow-auto rounded-lg border border-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-600"
      aria-label={caption}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
      tabIndex={0}
    >
      <table className="min-w-full text-left text-xs">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 bg-slate-50 text-slate-700">
          <tr>
            {table.columns.map((column) => (
              <th key={column} scope="col" className="px-3 py-2 font-semibold whitespace-nowrap">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 text-slate-800">
          {table.rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, c) => (
                <td
                  key={c}
                  className={
                    typeof cell === 'number'
                      ? 'px-3 py-1.5 whitespace-nowrap tabular-nums'
                      : c === 0
                        ? 'min-w-40 px-3 py-1.5'
                        : 'px-3 py-1.5 whitespace-nowrap'
                  }
                >
                  {render ? render(r, c, cell) : displayCell(cell)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
