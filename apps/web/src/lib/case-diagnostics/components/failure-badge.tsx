import { type CaseFailure, FAILURE_KIND_LABELS, type FailureKind } from '@argus/protocol';
import { Badge } from '../../../components/badge';

/** Each label's colour: the app's fault red; the test's own or the timing's softer. */
const KIND_TONES: Record<FailureKind, 'red' | 'orange' | 'amber' | 'indigo' | 'slate'> = {
  app_error: 'red',
  assertion: 'orange',
  not_found: 'amber',
  timing: 'indigo',
  environment: 'slate',
};

export function FailureKindBadge({ kind }: { kind: FailureKind }) {
  return (
    <Badge tone={KIND_TONES[kind]} data-testid="failure-kind" data-kind={kind}>
      {FAILURE_KIND_LABELS[kind]}
    </Badge>
  );
}

/** The failure's label and its evidence in a sentence. */
export function FailureLabel({ failure }: { failure: CaseFailure }) {
  return (
    <p className="flex flex-wrap items-start gap-x-2 gap-y-1 text-sm" data-testid="case-failure">
      <FailureKindBadge kind={failure.kind} />
      <span className="min-w-0 flex-1 basis-48 break-words text-slate-800" data-testid="failure-evidence">
        {failure.evidence}
      </span>
    </p>
  );
}
