import type { CaseRepair } from '@argus/protocol';
import { CheckCheck, Wrench } from 'lucide-react';
import { useMemo } from 'react';
import { Button } from '../../../components/button';
import { DecisionNoticeLine } from '../../../components/decision-notice';
import { EmptyState } from '../../../components/empty-state';
import { useCan } from '../../../lib/organization';
import { useRepairReview } from '../hooks/use-repair-review';
import { approveAllIds, reviewOrder } from '../model/review';
import { ConfirmWeakeningDialog, RejectDialog } from './decision-dialogs';
import { RepairCard } from './repair-card';

/** Deciding a proposal saves the suite: an editor's decision (the permission table). */
const APPROVE_ROUTE = 'POST /api/projects/:id/suites/:suiteId/repairs/approve';

/**
 * The proposals of a run or a suite, one card per verdict, with 'Approve selected' and 'Approve all'
 * (the plain repairs; a weakening is approved on its own, confirmed). What an approval saved stays
 * on the screen: 'Saved as version 4: Repaired from run …: 3 cases'.
 */
export function RepairsReview({
  repairs,
  emptyTitle,
  emptyHint,
}: {
  repairs: readonly CaseRepair[];
  emptyTitle: string;
  emptyHint: string;
}) {
  const review = useRepairReview(repairs);
  const canDecide = useCan(APPROVE_ROUTE);
  const ordered = useMemo(() => reviewOrder(repairs), [repairs]);
  const all = useMemo(() => approveAllIds(repairs), [repairs]);
  const waiting = repairs.filter((r) => r.status === 'proposed').length;

  return (
    <div className="space-y-4" data-testid="repairs-review">
      <DecisionNoticeLine notice={review.notice} testId="repairs-notice" />
      {repairs.length === 0 ? (
        <EmptyState icon={Wrench} title={emptyTitle} hint={emptyHint} />
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-3" data-testid="repairs-toolbar">
            <p className="mr-auto text-sm text-slate-700">
              {waiting === 0
                ? 'Nothing waits for review'
                : `${waiting} waiting for review · ${review.selected.size} selected`}
            </p>
            {canDecide && waiting > 0 && (
              <>
                <Button
                  variant="secondary"
                  disabled={review.busy || review.selected.size === 0}
                  onClick={() => void review.approveSelected()}
                >
                  Approve selected
                </Button>
                <Button
                  disabled={review.busy || all.length === 0}
                  onClick={() => void review.approveAll(all)}
                >
                  <CheckCheck className="size-4" aria-hidden />
                  Approve all repairs ({all.length})
                </Button>
              </>
            )}
          </div>
          <ul className="space-y-4">
            {ordered.map((repair) => (
              <RepairCard
                key={repair.id}
                repair={repair}
                selected={review.selected.has(repair.id)}
                canDecide={canDecide}
                busy={review.busy}
                onSelect={review.onSelect}
                onApprove={review.onApprove}
                onReject={review.askReject}
              />
            ))}
          </ul>
        </>
      )}
      <ConfirmWeakeningDialog
        repair={review.confirming}
        onConfirm={review.onConfirmWeakening}
        onClose={review.cancelConfirm}
      />
      <RejectDialog
        repair={review.rejecting}
        pending={review.rejectPending}
        onReject={review.onReject}
        onClose={review.cancelReject}
      />
    </div>
  );
}
