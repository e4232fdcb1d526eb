import { Check, Copy } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import toast from 'react-hot-toast';
import { SmallButton } from '../../../components/small-button';

/**
 * A value given once (an invitation link, a service token's value), with a Copy button, until the
 * user dismisses it. `label` names it for screen readers and the copy button.
 */
export function CopyValue({
  message,
  value,
  label,
  note,
  onDone,
  testId,
}: {
  message: ReactNode;
  value: string;
  label: string;
  note?: ReactNode;
  onDone: () => void;
  testId?: string;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast.success(`${label} copied`);
    } catch {
      toast.error(`Copying failed: select the ${label.toLowerCase()} and copy it`);
    }
  };
  return (
    <div className="rounded-xl border border-emerald-200 bg-emerald-50 p-4" data-testid={testId}>
      <p className="text-sm font-medium text-emerald-900">{message}</p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code
          className="min-w-0 flex-1 basis-64 break-all rounded-lg bg-white px-3 py-2 font-mono text-xs text-slate-900 ring-1 ring-emerald-200"
          data-testid={testId ? `${testId}-value` : undefined}
        >
          {value}
        </code>
        <SmallButton icon={copied ? Check : Copy} onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
          {copied ? 'Copied' : 'Copy'}
        </SmallButton>
        <SmallButton variant="ghost" onClick={onDone}>
          Done
        </SmallButton>
      </div>
      {note && <p className="mt-2 text-xs text-emerald-800">{note}</p>}
    </div>
  );
}
