import type { LucideIcon } from 'lucide-react';
import { History } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';
import { EmptyState } from './empty-state';
import { Panel } from './panel';
import { Spinner } from './spinner';

/** What the panel reads of the list's query. */
export interface PastList<T> {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  data: readonly T[] | undefined;
}

/**
 * A panel listing the user's past work of one kind (conversations, comparisons): a spinner while the list
 * loads, the error when it fails, an empty state when there is none, else a scrolling list of entries.
 */
export function PastListPanel<T>({
  title,
  testId,
  loadingLabel,
  list,
  empty,
  listHeightClassName,
  itemKey,
  renderItem,
  replacement,
}: {
  title: string;
  testId: string;
  /** Said by the spinner, e.g. 'Loading conversations'. */
  loadingLabel: string;
  /** The list's query (TanStack Query): loading, failed with an error, or its entries. */
  list: PastList<T>;
  empty: { icon: LucideIcon; title: string; hint: string };
  /** The list's max height, e.g. 'max-h-72'. */
  listHeightClassName: string;
  itemKey: (item: T) => string;
  /** One entry's content, inside its list item. */
  renderItem: (item: T) => ReactNode;
  /** Shown instead of the list when given, e.g. one entry opened. */
  replacement?: ReactNode;
}) {
  return (
    <Panel title={title} icon={History} testId={testId}>
      {replacement ? (
        replacement
      ) : list.isPending ? (
        <div className="flex justify-center py-6 text-indigo-600">
          <Spinner label={loadingLabel} />
        </div>
      ) : list.isError ? (
        <p className="text-sm text-red-700" role="alert">
          {list.error?.message}
        </p>
      ) : !list.data || list.data.length === 0 ? (
        <EmptyState icon={empty.icon} title={empty.title} hint={empty.hint} />
      ) : (
        <ul className={cn('-my-1', listHeightClassName, 'divide-y divide-slate-100 overflow-y-auto')}>
          {list.data.map((item) => (
            <li key={itemKey(item)}>{renderItem(item)}</li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
