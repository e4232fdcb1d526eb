import { AlertTriangle, FolderSearch, RotateCw } from 'lucide-react';
import type { ComponentType } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../components/banner';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { ApiError, errorText } from '../../lib/api-error';
import { useCan } from '../../lib/organization';
import { useProject } from './api/get-project';
import { EnvironmentsPanel } from './components/environments-panel';
import { LoginPanel } from './components/login-panel';
import { ProjectHeader } from './components/project-header';
import { RunsPanel } from './components/runs-panel';
import { SchedulesPanel } from './components/schedules-panel';
import { type SuiteActions, SuitesPanel } from './components/suites-panel';
import { VariablesPanel } from './components/variables-panel';
import { WebhooksPanel } from './components/webhooks-panel';
import { API_NOT_TESTABLE } from './model/kinds';

const linkClass =
  'inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

/** A project that does not exist, or is someone else's: the two look the same. */
function NotFound() {
  const canCreate = useCan('POST /api/projects');
  return (
    <div
      className="mx-auto flex max-w-xl flex-col items-center py-16 text-center sm:py-24"
      data-testid="project-not-found"
    >
      <span className="flex size-14 items-center justify-center rounded-2xl bg-slate-100 text-slate-500 ring-1 ring-slate-200">
        <FolderSearch className="size-6" aria-hidden />
      </span>
      <h1 className="mt-6 text-2xl font-semibold tracking-tight text-slate-900">Project not found</h1>
      <p className="mt-3 text-slate-600">
        It may have been deleted, or the link is not to one of your projects.
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {canCreate && (
          <Link
            to="/projects/new"
            className={`${linkClass} bg-indigo-600 text-white shadow-sm hover:bg-indigo-500`}
          >
            Create a project
          </Link>
        )}
        <Link
          to="/dashboard"
          className={`${linkClass} bg-white text-slate-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-50`}
        >
          Go to Home
        </Link>
      </div>
    </div>
  );
}

/**
 * /projects/:id: the project's name, kind and description; its environments, variables and secrets,
 * and login on the left; its saved suites and recent runs on the right.
 */
export function ProjectScreen({
  projectId,
  SuiteActions,
  ProjectLinks,
}: {
  projectId: string;
  /** Each saved suite's actions from other features (its repairs, 'Regenerate'), composed by app/. */
  SuiteActions?: SuiteActions;
  /** The project's pages from other features (its visual baselines), composed by app/, under its header. */
  ProjectLinks?: ComponentType<{ projectId: string }>;
}) {
  const project = useProject(projectId);

  if (project.isPending)
    return (
      <div className="flex justify-center py-24 text-indigo-600" data-testid="project-loading">
        <Spinner className="size-8" label="Loading project" />
      </div>
    );

  if (project.isError) {
    if (project.error instanceof ApiError && project.error.status === 404) return <NotFound />;
    return (
      <div className="mx-auto max-w-3xl space-y-4" data-testid="project-error">
        <h1 className="sr-only">Project</h1>
        <Banner tone="error" icon={AlertTriangle}>
          {errorText(project.error, 'The project could not be loaded')}
        </Banner>
        <Button variant="secondary" onClick={() => project.refetch()}>
          <RotateCw className="size-4" aria-hidden />
          Try again
        </Button>
      </div>
    );
  }

  const data = project.data;
  return (
    <div className="mx-auto max-w-7xl space-y-6" data-testid="project-screen" data-project-id={data.id}>
      <ProjectHeader project={data} />
      {ProjectLinks && (
        <nav aria-label="Project pages" className="flex flex-wrap items-center gap-2">
          <ProjectLinks projectId={data.id} />
        </nav>
      )}
      {data.kind === 'api' && (
        <Banner tone="warning" icon={AlertTriangle} testId="api-not-testable">
          {API_NOT_TESTABLE}
        </Banner>
      )}
      <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="min-w-0 space-y-6">
          <EnvironmentsPanel project={data} />
          <VariablesPanel project={data} />
          <LoginPanel project={data} />
        </div>
        <div className="min-w-0 space-y-6">
          <SuitesPanel projectId={data.id} Actions={SuiteActions} />
          <SchedulesPanel project={data} />
          <RunsPanel projectId={data.id} />
          <WebhooksPanel project={data} />
        </div>
      </div>
    </div>
  );
}
