import type { CaseRepair } from '@argus/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import type { DecisionNotice } from '../../../components/decision-notice';
import { errorText } from '../../../lib/api-error';
import { useApproveRepairs, useRejectRepair } from '../api/decide-repairs';
import { repairKeys } from '../api/keys';
import { approvalBody, bySuite, isDecidable, savedText } from '../model/review';

/**
 * The review's behaviour: which proposals are chosen, which weakenings the reviewer confirmed, and
 * the decisions (an approval per suite saves one version; its sentence stays on the screen).
 */
export function useRepairReview(repairs: readonly CaseRepair[]) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [confirmed, setConfirmed] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState<{ repair: CaseRepair; next: 'select' | 'approve' } | null>(
    null,
  );
  const [rejecting, setRejecting] = useState<CaseRepair | null>(null);
  const [notice, setNotice] = useState<DecisionNotice | null>(null);
  const approve = useApproveRepairs();
  const reject = useRejectRepair();
  const queryClient = useQueryClient();
  // A refusal (REPAIR_CONFLICT: decided elsewhere meanwhile, the case changed since) is said, and the
  // lists are read again so the screen shows where each proposal stands now.
  const refused = useCallback(
    (error: unknown, fallback: string) => {
      const text = errorText(error, fallback);
      setNotice({ tone: 'error', text });
      toast.error(text);
      void queryClient.invalidateQueries({ queryKey: repairKeys.all });
    },
    [queryClient],
  );

  // A proposal decided since (here or elsewhere) drops out of the choice.
  const selected = useMemo(
    () => new Set(repairs.filter((r) => chosen.has(r.id) && isDecidable(r)).map((r) => r.id)),
    [repairs, chosen],
  );

  const toggle = (id: string, on: boolean) =>
    setChosen((old) => {
      const next = new Set(old);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  /** Sends the approval of `ids` (with the confirmed weakenings among them), one request per suite. */
  const approveIds = useCallback(
    async (ids: ReadonlySet<string>, confirmedNow: ReadonlySet<string>) => {
      const saved: string[] = [];
      for (const [suiteId, group] of bySuite(repairs)) {
        const body = approvalBody(group, ids, confirmedNow);
        if (body.ids.length === 0) continue;
        try {
          const result = await approve.mutateAsync({ projectId: group[0].project_id, suiteId, body });
          saved.push(savedText(result));
        } catch (error) {
          refused(error, 'The repairs could not be approved');
          return;
        }
      }
      if (saved.length === 0) return;
      setChosen(new Set());
      setNotice({ tone: 'success', text: saved.join(' · ') });
      toast.success(saved.join(' · '));
    },
    [repairs, approve, refused],
  );

  const onSelect = (repair: CaseRepair, on: boolean) => {
    if (on && repair.verdict === 'weakens' && !confirmed.has(repair.id)) {
      setConfirming({ repair, next: 'select' });
      return;
    }
    toggle(repair.id, on);
  };

  const onApprove = (repair: CaseRepair) => {
    if (repair.verdict === 'weakens' && !confirmed.has(repair.id)) {
      setConfirming({ repair, next: 'approve' });
      return;
    }
    void approveIds(new Set([repair.id]), confirmed);
  };

  const onConfirmWeakening = (repair: CaseRepair) => {
    const after = confirming?.next;
    setConfirming(null);
    const next = new Set(confirmed).add(repair.id);
    setConfirmed(next);
    if (after === 'approve') void approveIds(new Set([repair.id]), next);
    else toggle(repair.id, true);
  };

  const onReject = (repair: CaseRepair, reason: string) =>
    reject.mutate(
      { repair, body: reason ? { reason } : {} },
      {
        onSuccess: () => {
          setRejecting(null);
          toggle(repair.id, false);
          setNotice({ tone: 'success', text: `Rejected the repair of ${repair.case_name}` });
        },
        onError: (error) => {
          setRejecting(null);
          refused(error, 'The repair could not be rejected');
        },
      },
    );

  return {
    selected,
    notice,
    busy: approve.isPending || reject.isPending,
    rejectPending: reject.isPending,
    confirming: confirming?.repair ?? null,
    rejecting,
    onSelect,
    onApprove,
    approveSelected: () => approveIds(selected, confirmed),
    approveAll: (ids: readonly string[]) => approveIds(new Set(ids), new Set()),
    onConfirmWeakening,
    cancelConfirm: () => setConfirming(null),
    askReject: setRejecting,
    cancelReject: () => setRejecting(null),
    onReject,
  };
}
