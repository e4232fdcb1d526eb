import type { CaseChange, CaseOutcome, HistoryOutcome } from '@argus/protocol';
import { Badge } from '../../../components/badge';
import { CASE_OUTCOME_TEXT, CHANGE_TEXT, OUTCOME_TEXT, visualReviewText } from '../model/format';

/** A run's, comparison's or conversation's outcome as a badge. */
export function OutcomeBadge({ outcome, className }: { outcome: HistoryOutcome; className?: string }) {
  const { label, tone } = OUTCOME_TEXT[outcome];
  return (
    <Badge tone={tone} className={className} data-testid="outcome-badge" data-outcome={outcome}>
      {label}
    </Badge>
  );
}

/**
 * A run whose visual checks wait for review (docs/VISUAL-CHECKS.md): 'Changes to review', beside its
 * outcome (the cases may all have passed). Nothing when none wait.
 */
export function VisualReviewBadge({ toReview }: { toReview: number | null | undefined }) {
  if (!toReview) return null;
  return (
    <Badge tone="amber" data-testid="visual-review-badge">
      {visualReviewText(toReview)}
    </Badge>
  );
}

/** A case's result as a badge. */
export function CaseOutcomeBadge({ outcome }: { outcome: CaseOutcome }) {
  const { label, tone } = CASE_OUTCOME_TEXT[outcome];
  return (
    <Badge tone={tone} data-testid="case-outcome" data-outcome={outcome}>
      {label}
    </Badge>
  );
}

/** How a case fared against the previous run, as a badge. */
export function ChangeBadge({ change }: { change: CaseChange }) {
  const { label, tone } = CHANGE_TEXT[change];
  return (
    <Badge tone={tone} data-testid="change-badge" data-change={change}>
      {label}
    </Badge>
  );
}
