import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { Panel } from '../../../components/panel';
import type { Table } from '../model/csv';
import { CsvButton } from './csv-button';

/**
 * What every analytics card is: a titled panel with its numbers as a CSV download, saying `empty`
 * when there is nothing to show, else its content (a chart, a ranked table).
 */
export interface TableCardProps {
  title: string;
  subtitle?: string;
  icon: LucideIcon;
  table: Table;
  fileName: string;
  /** Said instead of the content when there is nothing to show. */
  empty: string;
  testId: string;
}

export function TableCard({
  title,
  subtitle,
  icon,
  table,
  fileName,
  empty,
  isEmpty,
  testId,
  children,
}: TableCardProps & { isEmpty: boolean; children: ReactNode }) {
  return (
    <Panel
      title={title}
      subtitle={subtitle}
      icon={icon}
      testId={testId}
      aside={<CsvButton table={table} fileName={fileName} label={title} />}
    >
      {isEmpty ? <EmptyState icon={icon} title={empty} /> : children}
    </Panel>
  );
}
