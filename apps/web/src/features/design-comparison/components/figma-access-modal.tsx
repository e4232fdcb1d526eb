import { Globe2, UserPlus } from 'lucide-react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import type { FigmaHelp } from '../hooks/use-design-comparison';
import { COMPARISON_TEXTS } from '../model/texts';

export interface FigmaAccessModalProps {
  help: FigmaHelp | null;
  onCancel: () => void;
  onAcknowledge: () => void;
}

/** docs/PRODUCT.md#figma-access: 'Figma File Access Required' with its two ways to share a file, Cancel and 'Got it!'. */
export function FigmaAccessModal({ help, onCancel, onAcknowledge }: FigmaAccessModalProps) {
  const email = help?.serviceAccountEmail ?? null;
  return (
    <Dialog
      open={help !== null}
      onClose={onCancel}
      title={COMPARISON_TEXTS.modalTitle}
      description="Argus reads Figma files through the Figma API. Share the file one of these two ways, then start the comparison again."
    >
      <ol className="space-y-3" data-testid="figma-access-options">
        <li className="flex gap-3 rounded-xl border border-slate-200 p-4">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600 ring-1 ring-indigo-100">
            <Globe2 className="size-4" aria-hidden />
          </span>
          <div className="min-w-0 text-sm">
            <p className="font-semibold text-slate-900">Option 1: make the file public</p>
            <p className="mt-1 text-slate-600">
              In Figma, click <span className="font-medium">Share</span>, and under General access choose{' '}
              <span className="font-semibold text-slate-900">'Anyone with the link can view'</span>.
            </p>
          </div>
        </li>
        <li className="flex gap-3 rounded-xl border border-slate-200 p-4">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600 ring-1 ring-indigo-100">
            <UserPlus className="size-4" aria-hidden />
          </span>
          <div className="min-w-0 text-sm">
            <p className="font-semibold text-slate-900">Option 2: invite the service account</p>
            <p className="mt-1 text-slate-600">
              In Figma, click <span className="font-medium">Share</span>, enter{' '}
              {email ? (
                <code
                  className="rounded bg-slate-100 px-1 py-0.5 break-all text-slate-900"
                  data-testid="service-account"
                >
                  {email}
                </code>
              ) : (
                "the service account's email (your administrator knows it)"
              )}
              , choose <span className="font-semibold text-slate-900">'Can view'</span> and click Invite.
            </p>
          </div>
        </li>
      </ol>
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button onClick={onAcknowledge}>Got it!</Button>
      </div>
    </Dialog>
  );
}
