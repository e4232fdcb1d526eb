import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { Panel } from '../../../components/panel';
import type { Cell, Table } from '../model/csv';
import { CsvButton } from './csv-button';
import { DataTable } from './data-table';

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
    <Panel
      title={title}
      subtitle={subtitle}
      icon={icon}
      testId={testId}
      aside={<CsvButton table={table} fileName={fileName} label={title} />}
    >
      {table.rows.length === 0 ? (
        <EmptyState icon={icon} title={empty} />
      ) : (
        <DataTable table={table} caption={title} render={render} />
      )}
    </Panel>
  );
}
