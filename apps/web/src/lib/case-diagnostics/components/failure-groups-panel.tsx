import { Layers } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { Panel } from '../../../components/panel';
import { Spinner } from '../../../components/spinner';
import { errorText } from '../../api-error';
import { runPagePath } from '../../run-links';
import { type FailureGroupFilter, useFailureGroups } from '../api/list-failure-groups';
import { groupFacts, runLabel } from '../model/sightings';
import { FailureKindBadge } from './failure-badge';

const RUN_LINK =
  'font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600';

/**
 * The open failure groups (docs/DIAGNOSTICS.md): the same failure recognised across runs, with its
 * label, what failed, how many runs, its first and last run and the cases it touches. History and
 * Analytics show it, for the project (and days) they are filtered by.
 */
export function FailureGroupsPanel({
  query,
  hideWhenNone = false,
}: {
  query: FailureGroupFilter;
  /** Show nothing while loading or when no group is open (History's list, where the runs come first). */
  hideWhenNone?: boolean;
}) {
  const groups = useFailureGroups(query);
  if (hideWhenNone && (groups.isPending || groups.data?.groups.length === 0)) return null;
  return (
    <Panel
      title="Open failure groups"
      icon={Layers}
      subtitle="The same failure across runs, still failing in the latest run"
      testId="failure-groups"
    >
      {groups.isPending ? (
        <div className="flex justify-center py-4 text-indigo-600">
          <Spinner label="Loading failure groups" />
        </div>
      ) : groups.isError ? (
        <p className="text-sm text-red-700" role="alert">
          {errorText(groups.error, 'The failure groups could not be loaded')}
        </p>
      ) : groups.data.groups.length === 0 ? (
        <EmptyState
          icon={Layers}
          title="No open failures"
          hint="Failures still seen in a suite's latest run show here."
        />
      ) : (
        <ul className="divide-y divide-slate-100">
          {groups.data.groups.map((group) => (
            <li
              key={group.fingerprint}
              className="space-y-1 py-3 first:pt-0 last:pb-0"
              data-testid="failure-group"
            >
              <div className="flex flex-wrap items-center gap-2">
                <FailureKindBadge kind={group.kind} />
                <span className="min-w-0 flex-1 basis-48 text-sm font-medium break-words text-slate-900">
                  {group.summary}
                </span>
              </div>
              <p className="text-xs text-slate-600 tabular-nums" data-testid="failure-group-facts">
                {groupFacts(group)} · first in{' '}
                <Link to={runPagePath(group.first_run_id)} className={RUN_LINK}>
                  run {runLabel(group.first_run_id)}
                </Link>
                , last in{' '}
                <Link to={runPagePath(group.last_run_id)} className={RUN_LINK}>
                  run {runLabel(group.last_run_id)}
                </Link>
              </p>
              {group.cases.length > 0 && (
                <p className="text-xs break-words text-slate-700">
                  <span className="font-semibold">Cases:</span> {group.cases.join(', ')}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
