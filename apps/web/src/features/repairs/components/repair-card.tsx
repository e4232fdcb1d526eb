import type { CaseRepair } from '@argus/protocol';
import { Bug, Check, Wrench, X } from 'lucide-react';
import { useId } from 'react';
import { Badge } from '../../../components/badge';
import { SmallButton } from '../../../components/small-button';
import { StepDiff } from '../../../components/step-diff';
import { decisionText, isDecidable, STATUS_TEXT } from '../model/review';
import { RepairEvidence } from './repair-evidence';
import { ScreenshotPair } from './screenshot-pair';
import { WeakeningList } from './weakening-list';

export interface RepairCardProps {
  repair: CaseRepair;
  /** Chosen for 'Approve selected'. */
  selected: boolean;
  /** Whether the reviewer may decide (their role), and whether a decision is under way. */
  canDecide: boolean;
  busy: boolean;
  onSelect: (repair: CaseRepair, selected: boolean) => void;
  onApprove: (repair: CaseRepair) => void;
  onReject: (repair: CaseRepair) => void;
}

const STATUS_TONE = {
  proposed: 'indigo',
  approved: 'green',
  rejected: 'slate',
  superseded: 'slate',
  none: 'slate',
} as const;

function VerdictBadge({ repair }: { repair: CaseRepair }) {
  if (repair.verdict === 'bug') return <Badge tone="red">Looks like a bug</Badge>;
  if (repair.verdict === 'weakens') return <Badge tone="amber">Weakens an assertion</Badge>;
  return <Badge tone="indigo">Repair</Badge>;
}

/** A failure the app caused: said plainly, with its evidence, and nothing to approve. */
function BugBody({ repair }: { repair: CaseRepair }) {
  return (
    <div className="mt-3 space-y-2">
      <p className="flex items-center gap-1.5 text-sm font-semibold text-red-800">
        <Bug className="size-4 shrink-0" aria-hidden />
        Looks like a bug — no repair
      </p>
      <RepairEvidence repair={repair} />
    </div>
  );
}

function Actions({ repair, selected, canDecide, busy, onSelect, onApprove, onReject }: RepairCardProps) {
  const checkId = useId();
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3 border-t border-slate-100 pt-3">
      <label htmlFor={checkId} className="mr-auto flex items-center gap-2 text-sm text-slate-700">
        <input
          id={checkId}
          type="checkbox"
          checked={selected}
          disabled={!canDecide || busy}
          onChange={(event) => onSelect(repair, event.target.checked)}
          className="size-4 rounded border-slate-400 text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600"
        />
        Select {repair.case_name}
      </label>
      <SmallButton
        variant="secondary"
        icon={X}
        disabled={!canDecide || busy}
        onClick={() => onReject(repair)}
        aria-label={`Reject the repair of ${repair.case_name}`}
      >
        Reject
      </SmallButton>
      <SmallButton
        variant="primary"
        icon={Check}
        disabled={!canDecide || busy}
        onClick={() => onApprove(repair)}
        aria-label={`Approve the repair of ${repair.case_name}`}
      >
        Approve
      </SmallButton>
    </div>
  );
}

/**
 * One failed case's verdict: a repair (the step diff, before and after screenshots, the evidence and
 * its proof, Approve / Reject), one that weakens an assertion (the same, under a warning naming each
 * weakening), or a bug (the evidence, no actions). A decided proposal says how it was decided.
 */
export function RepairCard(props: RepairCardProps) {
  const { repair } = props;
  const titleId = useId();
  const decided = decisionText(repair);
  return (
    <li>
      <article
        aria-labelledby={titleId}
        className="rounded-xl border border-slate-200 bg-white p-4 shadow-xs"
        data-testid="repair-card"
        data-verdict={repair.verdict}
        data-status={repair.status}
      >
        <header className="flex flex-wrap items-center gap-2">
          <Wrench className="size-4 shrink-0 text-slate-400" aria-hidden />
          <h3
            id={titleId}
            className="min-w-0 flex-1 basis-48 text-sm font-semibold break-words text-slate-900"
          >
            {repair.case_name}
          </h3>
          <VerdictBadge repair={repair} />
          {repair.verdict !== 'bug' && (
            <Badge tone={STATUS_TONE[repair.status]} data-testid="repair-status">
              {STATUS_TEXT[repair.status]}
            </Badge>
          )}
        </header>
        <p className="mt-1 text-xs text-slate-600">
          Version {repair.suite_version}, case {repair.case_index + 1}
          {repair.step_index !== null && ` · failed at step ${repair.step_index + 1}`}
        </p>
        {repair.verdict === 'bug' ? (
          <BugBody repair={repair} />
        ) : (
          <div className="mt-3 space-y-3">
            {repair.verdict === 'weakens' && <WeakeningList weakenings={repair.weakenings} />}
            <StepDiff
              lines={repair.diff}
              label={`Steps of ${repair.case_name}, before and after`}
              testId="repair-diff"
            />
            <ScreenshotPair
              caseName={repair.case_name}
              before={repair.before_screenshot_id}
              after={repair.after_screenshot_id}
            />
            <RepairEvidence repair={repair} />
            {decided && (
              <p className="text-xs font-medium text-slate-700" data-testid="repair-decision">
                {decided}
              </p>
            )}
          </div>
        )}
        {/* Only whoever may decide sees the controls (the permission table). */}
        {isDecidable(repair) && props.canDecide && <Actions {...props} />}
      </article>
    </li>
  );
}
