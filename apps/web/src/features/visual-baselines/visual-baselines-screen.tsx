import { ArrowLeft, Images } from 'lucide-react';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Badge } from '../../components/badge';
import { EmptyState } from '../../components/empty-state';
import { Panel } from '../../components/panel';
import { ScreenHeader } from '../../components/screen-header';
import { Spinner } from '../../components/spinner';
import { ApiError, errorText } from '../../lib/api-error';
import { useCan } from '../../lib/organization';
import { useBaselinesProject } from './api/get-project';
import { useBaselines } from './api/list-baselines';
import { BaselineCard } from './components/baseline-card';
import { PromoteBranch } from './components/promote-branch';
import { ScopeForm } from './components/scope-form';
import { useRenewLinks } from './hooks/use-renew-links';
import { branchText, chosenEnvironment, environmentOptions, sortBaselines } from './model/baselines';

/** Changing a check's settings, restoring and promoting change a project's baselines: an editor's (the permission table). */
const SETTINGS_ROUTE = 'PUT /api/visual-baselines/:id/settings';
const RESTORE_ROUTE = 'POST /api/visual-baselines/:id/restore';
const PROMOTE_ROUTE = 'POST /api/projects/:id/visual-baselines/promote';

const linkClass =
  'inline-flex items-center gap-1 text-sm font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600';

/**
 * /projects/:id/baselines (issue 40, docs/VISUAL-CHECKS.md#the-baselines-screen): the current baseline
 * of each visual check on an environment and branch (`?environment=…&branch=…`, the default ones when
 * absent), each with its history and settings; a branch's promoted to the default branch. A viewer
 * sees it all, read-only.
 */
export function VisualBaselinesScreen({ projectId }: { projectId: string }) {
  const project = useBaselinesProject(projectId);
  const [search, setSearch] = useSearchParams();
  const environments = project.data?.environments ?? [];
  const environmentId = chosenEnvironment(environments, search.get('environment'));
  const branch = search.get('branch') ?? '';
  const list = useBaselines(projectId, environmentId, branch);
  const baselines = useMemo(() => sortBaselines(list.data?.baselines ?? []), [list.data]);
  const canEdit = useCan(SETTINGS_ROUTE);
  const canRestore = useCan(RESTORE_ROUTE);
  const canPromote = useCan(PROMOTE_ROUTE);
  const renew = useRenewLinks();
  const options = useMemo(() => environmentOptions(environments), [environments]);
  const environmentName = environments.find((e) => e.id === environmentId)?.name ?? '';

  const onScope = (scope: { environmentId: string; branch: string }) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('environment', scope.environmentId);
        if (scope.branch) next.set('branch', scope.branch);
        else next.delete('branch');
        return next;
      },
      { replace: true },
    );

  if (project.isError) {
    const missing = project.error instanceof ApiError && project.error.status === 404;
    return (
      <div className="mx-auto w-full max-w-6xl space-y-5" data-testid="visual-baselines-page">
        <h1 className="sr-only">Visual baselines</h1>
        <p className="rounded-2xl border border-red-200 bg-red-50 p-5 text-sm text-red-800" role="alert">
          {missing
            ? 'Project not found: it may have been deleted, or the link is not to one of your projects.'
            : errorText(project.error, 'The project could not be loaded')}
        </p>
      </div>
    );
  }

  return (
    <div className="mx-auto w-full max-w-7xl space-y-5" data-testid="visual-baselines-page">
      <Link to={`/projects/${encodeURIComponent(projectId)}`} className={linkClass}>
        <ArrowLeft className="size-4" aria-hidden />
        Project
      </Link>
      <ScreenHeader
        icon={Images}
        title="Visual baselines"
        titleClassName="basis-60"
        description={
          <p className="mt-1 text-sm text-slate-600">
            {project.data ? `${project.data.name}: ` : ''}the approved picture each visual check is compared
            with, its history, masks and threshold.
          </p>
        }
        aside={list.data ? <Badge tone="indigo">{baselines.length} current</Badge> : null}
      >
        {project.data && (
          <ScopeForm
            environments={options}
            environmentId={environmentId}
            branch={branch}
            onChange={onScope}
          />
        )}
      </ScreenHeader>
      <Panel
        title={`Current baselines · ${branchText(branch)}`}
        icon={Images}
        subtitle={environmentName ? `Environment ${environmentName}` : undefined}
        testId="visual-baselines"
        aside={
          branch !== '' && canPromote && list.isSuccess ? (
            <PromoteBranch
              projectId={projectId}
              environmentId={environmentId}
              branch={branch}
              count={baselines.length}
            />
          ) : null
        }
      >
        {project.isPending || list.isPending ? (
          <div className="flex justify-center py-10 text-indigo-600">
            <Spinner label="Loading the baselines" />
          </div>
        ) : list.isError ? (
          <p className="text-sm text-red-700" role="alert">
            {errorText(list.error, 'The baselines could not be loaded')}
          </p>
        ) : baselines.length === 0 ? (
          <div data-testid="visual-baselines-empty">
            <EmptyState
              icon={Images}
              title={branch ? `No baselines of branch ${branch} yet` : 'No baselines yet'}
              hint={
                branch
                  ? 'A run on this branch compares with the default branch’s baselines until a change is approved on it; that approval makes the branch’s own.'
                  : 'A run’s step “Verify the page looks as approved” records a new check for review; approving it on the run page’s Review tab makes its baseline here.'
              }
            />
          </div>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Current baselines">
            {baselines.map((baseline) => (
              <BaselineCard
                // Keyed by the check, not the baseline: a restore or a save makes a new newest one.
                key={`${baseline.case_name}\n${baseline.check_name}\n${baseline.viewport.width}x${baseline.viewport.height}\n${baseline.browser}`}
                baseline={baseline}
                canEdit={canEdit}
                canRestore={canRestore}
                onImageError={renew}
              />
            ))}
          </ul>
        )}
        {!canEdit && baselines.length > 0 && (
          <p className="mt-4 text-xs text-slate-600">
            You can look at the baselines; an editor changes their settings, restores and promotes them.
          </p>
        )}
      </Panel>
    </div>
  );
}
