import type { CaseRepair } from '@argus/protocol';
import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { TextAreaField } from '../../../components/text-area-field';
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
  const [reason, setReason] = useState('');
  const close = () => {
    setReason('');
    onClose();
  };
  return (
    <Dialog
      open={repair !== null}
      onClose={close}
      title={`Reject the repair of ${repair?.case_name ?? 'this case'}?`}
      description="It is not proposed again for the same page. The case stays as saved."
    >
      {repair && (
        <form
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            onReject(repair, reason.trim());
            setReason('');
          }}
        >
          <TextAreaField
            label="Why (optional)"
            value={reason}
            maxLength={500}
            rows={3}
            onChange={(event) => setReason(event.target.value)}
          />
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" disabled={pending}>
              {pending && <Loader2 className="size-4 animate-spin" aria-hidden />}
              Reject repair
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
