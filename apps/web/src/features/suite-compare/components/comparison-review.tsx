import type { SuiteChangeKind, SuiteComparison } from '@argus/protocol';
import { CheckCircle2, ChevronRight, CircleAlert } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/button';
import { errorText } from '../../../lib/api-error';
import { cn } from '../../../lib/cn';
import { useCan } from '../../../lib/organization';
import { useAcceptComparison } from '../api/accept-comparison';
import { acceptedText, defaultSelection, GROUP_ORDER, GROUP_TEXT, groupChanges } from '../model/comparison';
import { ChangeCard } from './change-card';

/** Accepting saves the suite: an editor's decision (the permission table). */
const ACCEPT_ROUTE = 'POST /api/projects/:id/suites/:suiteId/comparisons/:comparisonId/accept';

function Group({
  kind,
  comparison,
  children,
}: {
  kind: SuiteChangeKind;
  comparison: SuiteComparison;
  children: ReactNode;
}) {
  const count = comparison.counts[kind];
  const heading = (
    <span className="flex flex-wrap items-baseline gap-x-2">
      <span className="text-sm font-semibold text-slate-900">
        {GROUP_TEXT[kind].title} ({count})
      </span>
      <span className="text-xs text-slate-600">{GROUP_TEXT[kind].hint}</span>
    </span>
  );
  // Unchanged cases need no decision: folded, open on demand.
  if (kind === 'unchanged') {
    return (
      <details className="group" data-testid="comparison-group" data-kind={kind}>
        <summary className="flex cursor-pointer list-none items-center gap-1 rounded-lg py-1 focus-visible:outline-2 focus-visible:outline-indigo-600 [&::-webkit-details-marker]:hidden">
          <ChevronRight
            className="size-4 shrink-0 text-slate-500 transition-transform group-open:rotate-90"
            aria-hidden
          />
          <h3>{heading}</h3>
        </summary>
        <div className="mt-2">{children}</div>
      </details>
    );
  }
  return (
    <section
      data-testid="comparison-group"
      data-kind={kind}
      aria-label={`${GROUP_TEXT[kind].title} (${count})`}
    >
      <h3>{heading}</h3>
      <div className="mt-2">{count === 0 ? <p className="text-xs text-slate-600">None.</p> : children}</div>
    </section>
  );
}

/**
 * A regeneration against the saved suite: added, removed, changed and unchanged behaviours, each with
 * its steps, chosen one by one (new ones and changed ones not edited by hand at first), and 'Accept
 * selected' saving one new version.
 */
export function ComparisonReview({ comparison }: { comparison: SuiteComparison }) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => defaultSelection(comparison));
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const accept = useAcceptComparison();
  const canAccept = useCan(ACCEPT_ROUTE);
  const groups = useMemo(() => groupChanges(comparison), [comparison]);
  const done = notice?.tone === 'success';

  const onSelect = (key: string, on: boolean) =>
    setChosen((old) => {
      const next = new Set(old);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  const onAccept = () =>
    accept.mutate(
      {
        projectId: comparison.project_id,
        suiteId: comparison.suite_id,
        comparisonId: comparison.id,
        body: { keys: [...chosen] },
      },
      {
        onSuccess: (suite) => {
          setNotice({ tone: 'success', text: acceptedText(suite) });
          toast.success(acceptedText(suite));
        },
        onError: (error) => {
          const text = errorText(error, 'The changes could not be accepted');
          setNotice({ tone: 'error', text });
          toast.error(text);
        },
      },
    );

  return (
    <div className="space-y-5" data-testid="comparison-review">
      {notice && (
        <p
          role={notice.tone === 'error' ? 'alert' : 'status'}
          className={cn(
            'flex items-start gap-2 rounded-lg border px-3 py-2 text-sm font-medium',
            notice.tone === 'error'
              ? 'border-red-200 bg-red-50 text-red-800'
              : 'border-emerald-200 bg-emerald-50 text-emerald-900',
          )}
          data-testid="comparison-notice"
        >
          {notice.tone === 'error' ? (
            <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          ) : (
            <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden />
          )}
          {notice.text}
        </p>
      )}
      {GROUP_ORDER.map((kind) => (
        <Group key={kind} kind={kind} comparison={comparison}>
          <ul className="space-y-3">
            {groups[kind].map((change) => (
              <ChangeCard
                key={change.key}
                change={change}
                selected={chosen.has(change.key)}
                disabled={accept.isPending || done}
                canAccept={canAccept}
                onSelect={onSelect}
              />
            ))}
          </ul>
        </Group>
      ))}
      {canAccept && (
        <div className="sticky bottom-0 -mx-5 flex flex-wrap items-center gap-3 rounded-b-2xl border-t border-slate-200 bg-white/95 px-5 py-3 shadow-[0_-4px_8px_-6px_rgba(15,23,42,0.15)]">
          <p className="mr-auto text-sm text-slate-700">{chosen.size} selected</p>
          <Button disabled={chosen.size === 0 || accept.isPending || done} onClick={onAccept}>
            Accept selected
          </Button>
        </div>
      )}
    </div>
  );
}
