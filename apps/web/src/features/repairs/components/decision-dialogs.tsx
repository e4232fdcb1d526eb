import type { CaseRepair } from '@argus/protocol';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { ReasonDialog } from '../../../components/reason-dialog';
import { WeakeningList } from './weakening-list';

/**
 * Approving a repair that weakens an assertion is a choice made with the weakening in view: the
 * dialog lists it again and asks for an explicit 'Approve anyway'.
 */
export function ConfirmWeakeningDialog({
  repair,
  onConfirm,
  onClose,
}: {
  repair: CaseRepair | null;
  onConfirm: (repair: CaseRepair) => void;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={repair !== null}
      onClose={onClose}
      title="Approve a repair that weakens an assertion?"
      description={repair ? `${repair.case_name} would check less than it did.` : undefined}
    >
      {repair && (
        <div className="space-y-4">
          <WeakeningList weakenings={repair.weakenings} />
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => onConfirm(repair)}>
              Approve anyway
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

/** Rejecting, with the reviewer's reason kept with the decision (optional). */
export function RejectDialog({
  repair,
  pending,
  onReject,
  onClose,
}: {
  repair: CaseRepair | null;
  pending: boolean;
  onReject: (repair: CaseRepair, reason: string) => void;
  onClose: () => void;
}) {
  return (
    <ReasonDialog
      item={repair}
      title={(r) => `Reject the repair of ${r?.case_name ?? 'this case'}?`}
      description="It is not proposed again for the same page. The case stays as saved."
      submitLabel="Reject repair"
      pending={pending}
      onSubmit={onReject}
      onClose={onClose}
    />
  );
}
