import type { LucideIcon } from 'lucide-react';
import { BarChart3 } from 'lucide-react';
import type { Table } from '../model/csv';
import type { ChartData } from '../model/series';
import { DataTable } from './data-table';
import { TableCard } from './table-card';
import { TimeChart, type TimeChartProps } from './time-chart';

/** A chart with its numbers as a table (behind a disclosure) and as a CSV download. */
export function ChartCard({
  title,
  subtitle,
  icon = BarChart3,
  chart,
  table,
  fileName,
  empty,
  testId,
}: {
  title: string;
  subtitle?: string;
  icon?: LucideIcon;
  chart: Omit<TimeChartProps, 'data'> & { data: ChartData };
  table: Table;
  fileName: string;
  /** Said instead of the chart when the range holds nothing to draw. */
  empty: string;
  testId: string;
}) {
  const nothing = table.rows.length === 0 || chart.data.x.length === 0 || chart.data.series.length === 0;
  return (
    <TableCard
      title={title}
      subtitle={subtitle}
      icon={icon}
      table={table}
      fileName={fileName}
      empty={empty}
      isEmpty={nothing}
      testId={testId}
    >
      <TimeChart {...chart} />
      <details className="mt-3 group">
        <summary className="cursor-pointer text-xs font-semibold text-indigo-700 hover:underline">
          Show the numbers as a table
        </summary>
        <div className="mt-2">
          <DataTable table={table} caption={title} />
        </div>
      </details>
    </TableCard>
  );
}
