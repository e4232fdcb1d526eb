import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { TextAreaField } from './text-area-field';

/**
 * A decision that keeps the reviewer's reason with it (optional, up to 500 characters): rejecting a
 * repair, rejecting a visual change. Open while `item` is set; the reason is cleared on each close.
 */
export function ReasonDialog<T>({
  item,
  title,
  description,
  submitLabel,
  pending,
  onSubmit,
  onClose,
}: {
  item: T | null;
  title: (item: T | null) => string;
  description: string;
  submitLabel: string;
  pending: boolean;
  onSubmit: (item: T, reason: string) => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const close = () => {
    setReason('');
    onClose();
  };
  return (
    <Dialog open={item !== null} onClose={close} title={title(item)} description={description}>
      {item !== null && (
        <form
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit(item, reason.trim());
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
              {submitLabel}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
