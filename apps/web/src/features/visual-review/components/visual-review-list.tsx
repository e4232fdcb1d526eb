import type { VisualRunCheck } from '@argus/protocol';
import { CheckCheck, CheckCircle2, ChevronRight } from 'lucide-react';
import { useMemo } from 'react';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DecisionNoticeLine } from '../../../components/decision-notice';
import { ReasonDialog } from '../../../components/reason-dialog';
import { useCan } from '../../../lib/organization';
import { useRenewLinks } from '../hooks/use-renew-links';
import { useVisualReview } from '../hooks/use-visual-review';
import {
  checkTitle,
  countChecks,
  splitChecks,
  statusLabel,
  summaryText,
  viewportText,
} from '../model/review';
import { CheckCard } from './check-card';

/** Deciding changes a project's baselines: an editor's decision (the permission table). */
const DECIDE_ROUTE = 'POST /api/runs/:id/visual-checks/:checkId/decision';
const APPROVE_ALL_ROUTE = 'POST /api/runs/:id/visual-checks/approve-all';
const RESTORE_ROUTE = 'POST /api/visual-baselines/:id/restore';

/** The checks that looked as approved: one line each, folded away. */
function AsApproved({ checks }: { checks: readonly VisualRunCheck[] }) {
  if (checks.length === 0) return null;
  return (
    <details className="group rounded-xl border border-slate-200 bg-white" data-testid="visual-as-approved">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-xl px-4 py-3 text-sm font-medium text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600 [&::-webkit-details-marker]:hidden">
        <ChevronRight className="size-4 shrink-0 transition-transform group-open:rotate-90" aria-hidden />
        <CheckCircle2 className="size-4 shrink-0 text-emerald-700" aria-hidden />
        Looked as approved ({checks.length})
      </summary>
      <ul className="divide-y divide-slate-100 border-t border-slate-100">
        {checks.map((check) => (
          <li key={check.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2 text-sm">
            <span className="min-w-0 flex-1 basis-48 break-words text-slate-800">
              {check.case_name} <span className="text-slate-600">· {checkTitle(check)}</span>
            </span>
            <span className="text-xs text-slate-600">
              {viewportText(check.viewport)} · {check.browser}
            </span>
            <span className="text-xs font-medium text-emerald-800">{statusLabel(check)}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * A run's Review list (issue 40): a card per check to review (or decided), pending first, changed
 * before new; 'Approve all in this run' once confirmed; the checks that looked as approved folded away.
 */
export function VisualReviewList({ runId, checks }: { runId: string; checks: readonly VisualRunCheck[] }) {
  const review = useVisualReview(runId);
  const canDecide = useCan(DECIDE_ROUTE);
  const canApproveAll = useCan(APPROVE_ALL_ROUTE);
  const canRestore = useCan(RESTORE_ROUTE);
  const renew = useRenewLinks(runId);
  const { cards, asApproved } = useMemo(() => splitChecks(checks), [checks]);
  const counts = useMemo(() => countChecks(checks), [checks]);

  return (
    <div className="space-y-4" data-testid="visual-review">
      <DecisionNoticeLine notice={review.notice} testId="visual-review-notice" />
      <div className="flex flex-wrap items-center gap-3" data-testid="visual-review-toolbar">
        <p className="mr-auto text-sm text-slate-700">{summaryText(counts)}</p>
        {canApproveAll && counts.pending > 0 && (
          <Button disabled={review.busy} onClick={review.askApproveAll}>
            <CheckCheck className="size-4" aria-hidden />
            Approve all in this run ({counts.pending})
          </Button>
        )}
      </div>
      {cards.length > 0 && (
        <ul className="space-y-4">
          {cards.map((check) => (
            <CheckCard
              key={check.id}
              check={check}
              canDecide={canDecide}
              canRestore={canRestore}
              busy={review.busy}
              onDecide={review.onDecide}
              onImageError={renew}
            />
          ))}
        </ul>
      )}
      <AsApproved checks={asApproved} />
      <ReasonDialog
        item={review.rejecting}
        title={(check) => `Reject ${check ? `${check.case_name}, ${checkTitle(check)}` : 'this check'}?`}
        description="It is a bug: the baseline stays, and the next run is compared with it again."
        submitLabel="Reject change"
        pending={review.decidePending}
        onSubmit={review.onReject}
        onClose={review.cancelReject}
      />
      <ConfirmDialog
        open={review.confirmingAll}
        title={`Approve all ${counts.pending} ${counts.pending === 1 ? 'check' : 'checks'} of this run?`}
        description="Each capture becomes its check’s baseline, and the next runs are compared with it. The baselines they replace stay in each check’s history."
        confirmLabel="Approve all"
        pending={review.approveAllPending}
        onConfirm={() => review.onApproveAll(counts.pending)}
        onClose={review.cancelApproveAll}
      />
    </div>
  );
}
