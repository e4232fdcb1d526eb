import type { StepDiffLine, SuiteCaseChange } from '@argus/protocol';
import { ChevronRight, PenLine } from 'lucide-react';
import { useId, useMemo } from 'react';
import { Badge } from '../../../components/badge';
import { StepDiff } from '../../../components/step-diff';
import { caseName, isAcceptable } from '../model/comparison';

/** The lines a change shows: its diff when changed, else every step of the one case there is. */
function changeLines(change: SuiteCaseChange): StepDiffLine[] {
  if (change.kind === 'changed') return change.diff;
  const steps = change.generated?.steps ?? change.saved?.steps ?? [];
  const op = change.kind === 'added' ? 'added' : change.kind === 'removed' ? 'removed' : 'same';
  return steps.map((line, index) => ({
    op,
    line,
    before: op === 'added' ? null : index,
    after: op === 'removed' ? null : index,
  }));
}

const ACCEPT_TEXT: Record<SuiteCaseChange['kind'], string> = {
  added: 'Add',
  removed: 'Remove',
  changed: 'Replace',
  unchanged: '',
};

/**
 * One behaviour of the comparison: what it does, the case's name, its steps (the diff when changed),
 * and whether to accept it: add the new case, remove the saved one, or replace it with the generated
 * one. A curated case (edited by hand) says so, and is not chosen for the reviewer.
 */
export function ChangeCard({
  change,
  selected,
  disabled,
  canAccept,
  onSelect,
}: {
  change: SuiteCaseChange;
  selected: boolean;
  disabled: boolean;
  /** Whether the reviewer may accept (their role): the checkbox is theirs only. */
  canAccept: boolean;
  onSelect: (key: string, on: boolean) => void;
}) {
  const titleId = useId();
  const checkId = useId();
  const lines = useMemo(() => changeLines(change), [change]);
  const name = caseName(change);
  return (
    <li>
      <article
        aria-labelledby={titleId}
        className="rounded-xl border border-slate-200 bg-white p-4 shadow-xs"
        data-testid="comparison-change"
        data-kind={change.kind}
        data-key={change.key}
      >
        <header className="flex flex-wrap items-start gap-2">
          <div className="min-w-0 flex-1 basis-48">
            <h4 id={titleId} className="text-sm font-semibold break-words text-slate-900">
              {change.behaviour}
            </h4>
            {name !== change.behaviour && <p className="text-xs break-words text-slate-600">{name}</p>}
          </div>
          {change.curated && (
            <Badge tone="amber" data-testid="curated-badge">
              <PenLine className="size-3" aria-hidden />
              Curated
            </Badge>
          )}
        </header>
        {change.curated && (
          <p className="mt-2 text-xs text-amber-900">
            Edited by hand since it was generated: kept as saved unless you choose to replace it.
          </p>
        )}
        {lines.length > 0 &&
          (change.kind === 'changed' ? (
            <div className="mt-3">
              <StepDiff lines={lines} label={`Steps of ${name}, saved and generated`} />
            </div>
          ) : (
            // A whole case added or removed: its steps on demand, so the behaviours read as a list.
            <details className="group mt-2">
              <summary className="flex w-fit cursor-pointer list-none items-center gap-1 rounded text-xs font-medium text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600 [&::-webkit-details-marker]:hidden">
                <ChevronRight className="size-3.5 transition-transform group-open:rotate-90" aria-hidden />
                Its {lines.length} steps
              </summary>
              <div className="mt-2">
                <StepDiff lines={lines} label={`Steps of ${name}`} />
              </div>
            </details>
          ))}
        {isAcceptable(change) && canAccept && (
          <label htmlFor={checkId} className="mt-3 flex items-center gap-2 text-sm text-slate-700">
            <input
              id={checkId}
              type="checkbox"
              checked={selected}
              disabled={disabled}
              onChange={(event) => onSelect(change.key, event.target.checked)}
              className="size-4 rounded border-slate-400 text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600"
            />
            {ACCEPT_TEXT[change.kind]} “{name}”
          </label>
        )}
      </article>
    </li>
  );
}
