import type { VisualBaseline, VisualBaselineList } from '@argus/protocol';
import { History, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { errorText } from '../lib/api-error';
import { runPagePath } from '../lib/run-links';
import { Badge } from './badge';
import { ConfirmDialog } from './confirm-dialog';
import { SmallButton } from './small-button';
import { Spinner } from './spinner';

/** What the list shows of a check's history (a query's state, as react-query answers it). */
export interface BaselineHistoryState {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data?: VisualBaselineList;
}

/** How a baseline is restored (a mutation, as react-query's `mutate` takes it). */
export interface BaselineRestore {
  isPending: boolean;
  mutate: (
    baselineId: string,
    handlers: { onSuccess: () => void; onError: (error: unknown) => void },
  ) => void;
}

/**
 * A visual check's baselines, newest first (the current one on top): who approved each, when, from
 * which run, a thumbnail; an earlier one restored once confirmed (a copy of it becomes the newest; the
 * history keeps the one it replaces). Shown by the run's Review and by the project's baselines screen,
 * each with its own query and mutation (features never import each other).
 */
export function BaselineHistoryList({
  title,
  history,
  restore,
  canRestore,
  describe,
  onImageError,
  toastResults = false,
}: {
  /** 'Checkout, Whole page': what the history is of. */
  title: string;
  history: BaselineHistoryState;
  restore: BaselineRestore;
  canRestore: boolean;
  /** 'Approved by mia · 30 Nov 2026, 07:10 · from run 3f2a91c0'. */
  describe: (baseline: VisualBaseline) => string;
  /** A picture's signed link stopped loading (it expired): the caller renews the links. */
  onImageError?: () => void;
  /** Say the restore's outcome in a toast too (a screen whose notices are toasts). */
  toastResults?: boolean;
}) {
  const [restoring, setRestoring] = useState<VisualBaseline | null>(null);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const onRestore = (baseline: VisualBaseline) =>
    restore.mutate(baseline.id, {
      onSuccess: () => {
        setRestoring(null);
        const text = `Restored the baseline approved by ${baseline.approved_by}`;
        setResult({ tone: 'success', text });
        if (toastResults) toast.success(text);
      },
      onError: (error) => {
        setRestoring(null);
        const text = errorText(error, 'The baseline could not be restored');
        setResult({ tone: 'error', text });
        if (toastResults) toast.error(text);
      },
    });

  return (
    <section
      aria-label={`Baseline history of ${title}`}
      className="rounded-lg border border-slate-200 bg-slate-50 p-3"
      data-testid="visual-baseline-history"
    >
      <h4 className="flex items-center gap-1.5 text-xs font-semibold text-slate-800">
        <History className="size-3.5" aria-hidden />
        Baseline history
      </h4>
      {result && (
        <p
          role={result.tone === 'error' ? 'alert' : 'status'}
          className={`mt-2 text-xs font-medium ${result.tone === 'error' ? 'text-red-700' : 'text-emerald-800'}`}
        >
          {result.text}
        </p>
      )}
      {history.isPending ? (
        <div className="flex justify-center py-4 text-indigo-600">
          <Spinner label="Loading the baseline history" />
        </div>
      ) : history.isError || !history.data ? (
        <p className="mt-2 text-xs text-red-700" role="alert">
          {errorText(history.error, 'The baseline history could not be loaded')}
        </p>
      ) : history.data.baselines.length === 0 ? (
        <p className="mt-2 text-xs text-slate-600">No baseline was approved yet.</p>
      ) : (
        <ol className="mt-2 space-y-2">
          {history.data.baselines.map((baseline, index) => (
            <li
              key={baseline.id}
              className="flex flex-wrap items-center gap-3 rounded-md bg-white p-2 ring-1 ring-slate-200"
              data-testid="visual-baseline-entry"
            >
              <a
                href={baseline.image}
                target="_blank"
                rel="noreferrer"
                className="shrink-0 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
              >
                <img
                  src={baseline.image}
                  alt={`Baseline ${describe(baseline)} (opens full size)`}
                  onError={onImageError}
                  className="block h-14 w-24 rounded border border-slate-200 bg-slate-100 object-cover object-top"
                  decoding="async"
                />
              </a>
              <div className="min-w-0 flex-1 basis-40 text-xs text-slate-700">
                <p className="flex flex-wrap items-center gap-2">
                  {index === 0 && <Badge tone="green">Current baseline</Badge>}
                  <span className="break-words">{describe(baseline)}</span>
                </p>
                {baseline.source_run_id && (
                  <Link
                    to={runPagePath(baseline.source_run_id)}
                    className="mt-1 inline-block font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
                  >
                    Open run {baseline.source_run_id.slice(0, 8)}
                  </Link>
                )}
              </div>
              {index > 0 && canRestore && (
                <SmallButton
                  icon={RotateCcw}
                  disabled={restore.isPending}
                  onClick={() => setRestoring(baseline)}
                  aria-label={`Restore the baseline ${describe(baseline)}`}
                >
                  Restore
                </SmallButton>
              )}
            </li>
          ))}
        </ol>
      )}
      <ConfirmDialog
        open={restoring !== null}
        title="Restore this baseline?"
        description={`It becomes the baseline of ${title} again: the next runs are compared with it. The current one stays in this history.`}
        confirmLabel="Restore baseline"
        pending={restore.isPending}
        onConfirm={() => restoring && onRestore(restoring)}
        onClose={() => setRestoring(null)}
      />
    </section>
  );
}
