import { Download } from 'lucide-react';
import { SmallButton } from '../../../components/small-button';
import { downloadText } from '../../../lib/download';
import { type Table, toCsv } from '../model/csv';

/** 'Download CSV' of a table, built in the browser. */
export function CsvButton({ table, fileName, label }: { table: Table; fileName: string; label: string }) {
  return (
    <SmallButton
      icon={Download}
      onClick={() => downloadText(toCsv(table), fileName, 'text/csv;charset=utf-8')}
      disabled={table.rows.length === 0}
      aria-label={`Download CSV: ${label}`}
    >
      Download CSV
    </SmallButton>
  );
}
