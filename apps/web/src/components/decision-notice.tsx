import { CheckCircle2, CircleAlert } from 'lucide-react';
import { cn } from '../lib/cn';

/** What a review's last decision left to say: done (a status) or refused (an alert). */
export interface DecisionNotice {
  tone: 'success' | 'error';
  text: string;
}

/** The sentence a review's last decision leaves above its cards (repairs, visual checks). */
export function DecisionNoticeLine({ notice, testId }: { notice: DecisionNotice | null; testId: string }) {
  if (!notice) return null;
  const error = notice.tone === 'error';
  return (
    <p
      role={error ? 'alert' : 'status'}
      className={cn(
        'flex items-start gap-2 rounded-lg border px-3 py-2 text-sm font-medium',
        error ? 'border-red-200 bg-red-50 text-red-800' : 'border-emerald-200 bg-emerald-50 text-emerald-900',
      )}
      data-testid={testId}
    >
      {error ? (
        <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
      ) : (
        <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden />
      )}
      {notice.text}
    </p>
  );
}
