import type { ReactNode } from 'react';
import type { Cell } from '../model/csv';
import { DataTable } from './data-table';
import { TableCard, type TableCardProps } from './table-card';

/** A ranked list (slowest tests, failing steps, flaky tests) as a table, with its CSV. */
export function RankedList({
  render,
  ...card
}: TableCardProps & {
  subtitle: string;
  render?: (row: number, column: number, cell: Cell) => ReactNode;
}) {
  return (
    <TableCard {...card} isEmpty={card.table.rows.length === 0}>
      <DataTable table={card.table} caption={card.title} render={render} />
    </TableCard>
  );
}
