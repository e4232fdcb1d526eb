import { Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { SmallButton } from '../../../components/small-button';

/**
 * The end of a project page form: Cancel, then the submit button, disabled with a spinner while the
 * save is under way.
 */
export function FormActions({
  pending,
  onCancel,
  children,
  className = 'flex justify-end gap-2',
}: {
  pending: boolean;
  onCancel: () => void;
  /** The submit button's label. */
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={className}>
      <SmallButton onClick={onCancel}>Cancel</SmallButton>
      <SmallButton type="submit" variant="primary" disabled={pending}>
        {pending && <Loader2 className="size-3.5 animate-spin" aria-hidden />}
        {children}
      </SmallButton>
    </div>
  );
}
