import type { CaseComparison, RunComparison, StepDifference } from '@argus/protocol';
import { GitCompareArrows } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { Panel } from '../../../components/panel';
import { formatWhen } from '../model/format';
import { runPagePath } from '../model/links';
import { orderedCases } from '../model/run-cases';
import { CaseOutcomeBadge, ChangeBadge } from './outcome-badge';

const COUNTS: { key: keyof RunComparison['counts']; label: string; tone: string }[] = [
  { key: 'new_failures', label: 'New failures', tone: 'text-red-700' },
  { key: 'fixed', label: 'Fixed', tone: 'text-emerald-700' },
  { key: 'still_failing', label: 'Still failing', tone: 'text-orange-700' },
  { key: 'new', label: 'New', tone: 'text-indigo-700' },
  { key: 'removed', label: 'Removed', tone: 'text-slate-700' },
];

function StepSide({ label, side }: { label: string; side: StepDifference['now'] }) {
  return (
    <div className="min-w-0 flex-1 basis-48 rounded-lg bg-slate-50 px-3 py-2">
      <p className="text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{label}</p>
      {side ? (
        <>
          <p className="mt-0.5 text-sm break-words text-slate-800">{side.action}</p>
          <p className={side.status === 'error' ? 'text-xs text-red-700' : 'text-xs text-slate-600'}>
            {side.status}
            {side.error ? `: ${side.error}` : ''}
          </p>
        </>
      ) : (
        <p className="mt-0.5 text-sm text-slate-600">No such step</p>
      )}
    </div>
  );
}

/** The first step where a case now differs: now beside before. */
export function StepDifferenceView({ difference }: { difference: StepDifference }) {
  return (
    <div className="mt-2" data-testid="first-difference">
      <p className="text-xs font-medium text-slate-700">First difference at step {difference.step_number}</p>
      <div className="mt-1 flex flex-wrap gap-2">
        <StepSide label="Now" side={difference.now} />
        <StepSide label="Before" side={difference.before} />
      </div>
    </div>
  );
}

function ChangedCase({ item }: { item: CaseComparison }) {
  return (
    <li className="py-3 first:pt-0 last:pb-0" data-testid="compared-case" data-change={item.change}>
      <div className="flex flex-wrap items-center gap-2">
        <ChangeBadge change={item.change} />
        <span className="min-w-0 text-sm font-medium break-words text-slate-900">{item.name}</span>
        <span className="ml-auto flex items-center gap-1 text-xs text-slate-600">
          {item.previous_status && <CaseOutcomeBadge outcome={item.previous_status} />}
          {item.previous_status && item.status && (
            <>
              <span aria-hidden>→</span>
              <span className="sr-only">now</span>
            </>
          )}
          {item.status && <CaseOutcomeBadge outcome={item.status} />}
        </span>
      </div>
      {item.error && <p className="mt-1 text-xs break-words text-red-700">{item.error}</p>}
      {item.first_difference && <StepDifferenceView difference={item.first_difference} />}
    </li>
  );
}

/** The run against the previous run of its suite (docs/HISTORY.md): counts, then each case that changed. */
export function ComparisonPanel({ comparison }: { comparison: RunComparison }) {
  const { previous, counts } = comparison;
  const changed = orderedCases(comparison.cases).filter((c) => c.change !== 'still_passing');
  return (
    <Panel
      title="Compared with the previous run"
      icon={GitCompareArrows}
      testId="run-comparison"
      subtitle={previous ? `Previous run ${formatWhen(previous.created_at)}` : undefined}
      aside={
        previous ? (
          <Link
            to={runPagePath(previous.id)}
            className="text-xs font-semibold text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
            data-testid="previous-run-link"
          >
            Open the previous run
          </Link>
        ) : undefined
      }
    >
      {!previous ? (
        <EmptyState
          icon={GitCompareArrows}
          title="Nothing to compare with"
          hint="This is the first run of its suite on this environment."
        />
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-5">
            {COUNTS.map(({ key, label, tone }) => (
              <div key={key} className="rounded-xl bg-slate-50 px-3 py-2" data-testid={`count-${key}`}>
                <dt className="text-xs text-slate-600">{label}</dt>
                <dd className={`text-lg font-semibold tabular-nums ${counts[key] ? tone : 'text-slate-500'}`}>
                  {counts[key]}
                </dd>
              </div>
            ))}
          </dl>
          {changed.length === 0 ? (
            <p className="mt-4 text-sm text-slate-600">Every case fared as in the previous run.</p>
          ) : (
            <ul className="mt-4 divide-y divide-slate-100">
              {changed.map((item) => (
                <ChangedCase key={item.name} item={item} />
              ))}
            </ul>
          )}
        </>
      )}
    </Panel>
  );
}
