import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Cell, Table } from '../model/csv';
import { DataTable } from './data-table';
import { TableCard } from './table-card';

/** A ranked list (slowest tests, failing steps, flaky tests) as a table, with its CSV. */
export function RankedList({
  title,
  subtitle,
  icon,
  table,
  fileName,
  empty,
  testId,
  render,
}: {
  title: string;
  subtitle: string;
  icon: LucideIcon;
  table: Table;
  fileName: string;
  empty: string;
  testId: string;
  render?: (row: number, column: number, cell: Cell) => ReactNode;
}) {
  return (
    <TableCard
      title={title}
      subtitle={subtitle}
      icon={icon}
      table={table}
      fileName={fileName}
      empty={empty}
      isEmpty={table.rows.length === 0}
      testId={testId}
    >
      <DataTable table={table} caption={title} render={render} />
    </TableCard>
  );
}
