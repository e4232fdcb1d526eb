import type { VisualRunCheck } from '@argus/protocol';
import { Check, CircleAlert, History, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Badge } from '../../../components/badge';
import { SegmentedControl } from '../../../components/segmented-control';
import { SmallButton } from '../../../components/small-button';
import {
  type CheckView,
  checkTitle,
  decisionText,
  historyBaselineId,
  issueKindText,
  statusLabel,
  VIEW_TEXT,
  viewportText,
  viewsOf,
} from '../model/review';
import { BaselineHistory } from './baseline-history';
import { MASK_STYLE } from './capture-image';
import { CurrentView, DifferenceView, OverlayView, SideBySideView } from './check-views';

export interface CheckCardProps {
  check: VisualRunCheck;
  /** Whether the reviewer may decide and restore (their role), and whether a decision is under way. */
  canDecide: boolean;
  canRestore: boolean;
  busy: boolean;
  onDecide: (check: VisualRunCheck, decision: 'approve' | 'reject') => void;
  onImageError: () => void;
}

const STATUS_TONE = { changed: 'amber', new: 'indigo', same: 'green' } as const;
const REVIEW_TEXT = {
  pending: 'Waiting for review',
  approved: 'Approved',
  rejected: 'Rejected',
  none: 'Nothing to review',
} as const;
const REVIEW_TONE = { pending: 'indigo', approved: 'green', rejected: 'red', none: 'slate' } as const;

/** The issues located by the comparison, numbered as the boxes over the capture. */
function IssueList({ check }: { check: VisualRunCheck }) {
  if (check.issues.length === 0) return null;
  return (
    <ol className="space-y-1.5" aria-label={`What changed in ${check.case_name}, ${checkTitle(check)}`}>
      {check.issues.map((issue, index) => (
        <li key={index} className="flex items-start gap-2 text-sm text-slate-800">
          <span
            aria-hidden
            className="mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full bg-red-700 text-[10px] font-bold text-white"
          >
            {index + 1}
          </span>
          <span className="min-w-0 break-words">
            <span className="font-semibold">{issueKindText(issue.kind)}:</span> {issue.message}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** What the marks over the images mean. */
function Legend({ check }: { check: VisualRunCheck }) {
  const masked = check.moving_masks.length > 0 || (check.baseline?.user_masks.length ?? 0) > 0;
  if (!masked && check.issues.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700" aria-label="Legend">
      {check.issues.length > 0 && (
        <li className="flex items-center gap-1.5">
          <span aria-hidden className="size-3 rounded-sm bg-red-500/10 ring-2 ring-red-600" />
          Located issue (numbered as listed)
        </li>
      )}
      {check.moving_masks.length > 0 && (
        <li className="flex items-center gap-1.5">
          <span aria-hidden className="size-3 rounded-sm ring-1 ring-slate-900/50" style={MASK_STYLE} />
          Masked: moved by itself
        </li>
      )}
      {(check.baseline?.user_masks.length ?? 0) > 0 && (
        <li className="flex items-center gap-1.5">
          <span aria-hidden className="size-3 rounded-sm ring-1 ring-slate-900/50" style={MASK_STYLE} />
          Masked: by your team
        </li>
      )}
    </ul>
  );
}

function Images({ check, onImageError }: Pick<CheckCardProps, 'check' | 'onImageError'>) {
  const views = viewsOf(check);
  const [view, setView] = useState<CheckView>('side');
  const name = useId();
  // A capture alone (a new check) as wide as one of a pair: a whole page at a glance.
  if (views.length === 0) {
    return (
      <div className="sm:w-1/2">
        <CurrentView check={check} onImageError={onImageError} />
      </div>
    );
  }
  const shown = views.includes(view) ? view : views[0];
  return (
    <div className="space-y-3">
      <SegmentedControl
        size="compact"
        legend={`How to show ${check.case_name}, ${checkTitle(check)}`}
        name={name}
        value={shown}
        onChange={setView}
        options={views.map((value) => ({ value, label: VIEW_TEXT[value] }))}
      />
      {shown === 'side' && <SideBySideView check={check} onImageError={onImageError} />}
      {shown === 'overlay' && <OverlayView check={check} onImageError={onImageError} />}
      {shown === 'diff' && <DifferenceView check={check} onImageError={onImageError} />}
    </div>
  );
}

/**
 * One visual check of the run: its case, check, viewport and message, the located issues, the images
 * (side by side, overlay with a slider, difference; a new check its capture alone), Approve / Reject
 * while it waits, who decided and when once decided, and the baseline's history.
 */
export function CheckCard({ check, canDecide, canRestore, busy, onDecide, onImageError }: CheckCardProps) {
  const titleId = useId();
  const historyId = useId();
  const [showHistory, setShowHistory] = useState(false);
  const decided = decisionText(check);
  const historyOf = historyBaselineId(check);
  const title = checkTitle(check);
  const name = `${check.case_name}, ${title}`;
  const pending = check.review === 'pending';
  return (
    <li>
      <article
        aria-labelledby={titleId}
        className="rounded-xl border border-slate-200 bg-white p-4 shadow-xs"
        data-testid="visual-check"
        data-status={check.status}
        data-review={check.review}
      >
        <header className="flex flex-wrap items-center gap-2">
          <h3
            id={titleId}
            className="min-w-0 flex-1 basis-48 text-sm font-semibold break-words text-slate-900"
          >
            {check.case_name}
            <span className="font-normal text-slate-600"> · {title}</span>
          </h3>
          <Badge tone={STATUS_TONE[check.status]} data-testid="visual-check-status">
            {statusLabel(check)}
          </Badge>
          {check.review !== 'none' && (
            <Badge tone={REVIEW_TONE[check.review]} data-testid="visual-check-review">
              {REVIEW_TEXT[check.review]}
            </Badge>
          )}
        </header>
        <p className="mt-1 text-xs text-slate-600">
          {check.region && `Region “${check.region}” · `}viewport {viewportText(check.viewport)} ·{' '}
          {check.browser} · step {check.step_index + 1}
          {check.branch && ` · branch ${check.branch}`}
        </p>
        <div className="mt-3 space-y-3">
          {check.status === 'new' ? (
            <p
              className="flex items-start gap-1.5 text-sm font-medium text-indigo-800"
              data-testid="visual-check-new"
            >
              <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
              New visual check: approve it to make it the baseline
            </p>
          ) : (
            <p className="text-sm text-slate-700" data-testid="visual-check-message">
              {check.message}
            </p>
          )}
          <IssueList check={check} />
          <Images check={check} onImageError={onImageError} />
          <Legend check={check} />
          {decided && (
            <p className="text-xs font-medium text-slate-700" data-testid="visual-check-decision">
              {decided}
            </p>
          )}
          {pending && !canDecide && (
            <p className="text-xs text-slate-600">Waiting for an editor to approve or reject it.</p>
          )}
        </div>
        <div className="mt-4 flex flex-wrap items-center gap-3 border-t border-slate-100 pt-3">
          {historyOf ? (
            <SmallButton
              variant="ghost"
              icon={History}
              aria-expanded={showHistory}
              aria-controls={showHistory ? historyId : undefined}
              onClick={() => setShowHistory((open) => !open)}
              className="mr-auto"
            >
              {showHistory ? 'Hide baseline history' : 'Baseline history'}
            </SmallButton>
          ) : (
            <span className="mr-auto" />
          )}
          {/* Only whoever may decide sees the controls (the permission table). */}
          {pending && canDecide && (
            <>
              <SmallButton
                variant="secondary"
                icon={X}
                disabled={busy}
                onClick={() => onDecide(check, 'reject')}
                aria-label={`Reject ${name}: it is a bug`}
              >
                Reject
              </SmallButton>
              <SmallButton
                variant="primary"
                icon={Check}
                disabled={busy}
                onClick={() => onDecide(check, 'approve')}
                aria-label={`Approve ${name}: make it the baseline`}
              >
                Approve
              </SmallButton>
            </>
          )}
        </div>
        {historyOf && showHistory && (
          <div id={historyId} className="mt-3">
            <BaselineHistory baselineId={historyOf} title={name} canRestore={canRestore} />
          </div>
        )}
      </article>
    </li>
  );
}
