import { BarChart3 } from 'lucide-react';
import type { ChartData } from '../model/series';
import { DataTable } from './data-table';
import { TableCard, type TableCardProps } from './table-card';
import { TimeChart, type TimeChartProps } from './time-chart';

/** A chart with its numbers as a table (behind a disclosure) and as a CSV download. */
export function ChartCard({
  chart,
  icon = BarChart3,
  ...card
}: Omit<TableCardProps, 'icon'> & {
  icon?: TableCardProps['icon'];
  chart: Omit<TimeChartProps, 'data'> & { data: ChartData };
}) {
  const { table } = card;
  const nothing = table.rows.length === 0 || chart.data.x.length === 0 || chart.data.series.length === 0;
  return (
    <TableCard {...card} icon={icon} isEmpty={nothing}>
      <TimeChart {...chart} />
      <details className="mt-3 group">
        <summary className="cursor-pointer text-xs font-semibold text-indigo-700 hover:underline">
          Show the numbers as a table
        </summary>
        <div className="mt-2">
          <DataTable table={table} caption={card.title} />
        </div>
      </details>
    </TableCard>
  );
}
