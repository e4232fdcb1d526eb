import type { VisualRunCheck } from '@argus/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import toast from 'react-hot-toast';
import type { DecisionNotice } from '../../../components/decision-notice';
import { errorText } from '../../../lib/api-error';
import { useApproveAllVisualChecks } from '../api/approve-all';
import { useDecideVisualCheck } from '../api/decide-check';
import { visualKeys } from '../api/keys';
import { checkTitle } from '../model/review';

/**
 * The review's behaviour: a decision per check, 'Approve all in this run' once confirmed, and the
 * sentence each leaves on the screen. A refusal (409 CONFLICT: decided elsewhere meanwhile; 403: the
 * role) is said, and the lists are read again so every card shows where it stands now.
 */
export function useVisualReview(runId: string) {
  const [notice, setNotice] = useState<DecisionNotice | null>(null);
  const [confirmingAll, setConfirmingAll] = useState(false);
  /** The check whose rejection asks for a reason first. */
  const [rejecting, setRejecting] = useState<VisualRunCheck | null>(null);
  const decide = useDecideVisualCheck();
  const approveAll = useApproveAllVisualChecks();
  const queryClient = useQueryClient();

  const refused = useCallback(
    (error: unknown, fallback: string) => {
      const text = errorText(error, fallback);
      setNotice({ tone: 'error', text });
      toast.error(text);
      void queryClient.invalidateQueries({ queryKey: visualKeys.all });
    },
    [queryClient],
  );

  /** Approves at once; a rejection first asks why (`rejecting`), then `onReject` sends it. */
  const onDecide = (check: VisualRunCheck, decision: 'approve' | 'reject') => {
    if (decision === 'reject') setRejecting(check);
    else send(check, 'approve');
  };

  const send = (check: VisualRunCheck, decision: 'approve' | 'reject', reason?: string) => {
    const name = `${check.case_name}, ${checkTitle(check)}`;
    decide.mutate(
      { check, decision, reason },
      {
        onSettled: () => setRejecting(null),
        onSuccess: () =>
          setNotice({
            tone: 'success',
            text:
              decision === 'approve'
                ? `Approved ${name}: it is the baseline now`
                : `Rejected ${name}: the baseline stays`,
          }),
        onError: (error) =>
          refused(
            error,
            decision === 'approve' ? 'The check could not be approved' : 'The check could not be rejected',
          ),
      },
    );
  };

  /** `waiting`: how many checks waited when the reviewer confirmed, for the sentence. */
  const onApproveAll = (waiting: number) =>
    approveAll.mutate(runId, {
      onSuccess: () => {
        setConfirmingAll(false);
        const text = `Approved ${waiting} ${waiting === 1 ? 'check' : 'checks'} of this run: each is its baseline now`;
        setNotice({ tone: 'success', text });
        toast.success(text);
      },
      onError: (error) => {
        setConfirmingAll(false);
        refused(error, 'The checks could not be approved');
      },
    });

  return {
    notice,
    busy: decide.isPending || approveAll.isPending,
    approveAllPending: approveAll.isPending,
    confirmingAll,
    onDecide,
    rejecting,
    decidePending: decide.isPending,
    onReject: (check: VisualRunCheck, reason: string) => send(check, 'reject', reason),
    cancelReject: () => setRejecting(null),
    askApproveAll: () => setConfirmingAll(true),
    cancelApproveAll: () => setConfirmingAll(false),
    onApproveAll,
  };
}
