import type { ProjectKind } from '@argus/protocol';
import { AlertTriangle, ChevronRight, FolderOpen, Plus } from 'lucide-react';
import { Link } from 'react-router';
import { Banner } from '../../components/banner';
import { Spinner } from '../../components/spinner';
import { errorText } from '../../lib/api-error';
import { cn } from '../../lib/cn';
import { useCan } from '../../lib/organization';
import { useProjectList } from '../../lib/projects/project-list';
import { KIND_ICON } from './components/kind-icons';
import { PageTitle } from './components/page-title';
import { fullTime, relativeTime } from './model/format';
import { API_NOT_TESTABLE, KIND_TEXT } from './model/kinds';
import { newProjectPath, projectPagePath } from './model/paths';

const linkButton =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-indigo-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

/**
 * /projects/web, /projects/mobile, /projects/api: the user's projects of one kind, most recently
 * changed first, and a button to create one of that kind. API projects are listed, and said not to
 * be testable yet.
 */
export function ProjectsOfKindScreen({ kind }: { kind: ProjectKind }) {
  const list = useProjectList();
  const text = KIND_TEXT[kind];
  const Icon = KIND_ICON[kind];
  const projects = (list.data ?? [])
    .filter((project) => project.kind === kind)
    .sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  const now = Date.now();
  const canCreate = useCan('POST /api/projects');
  const create = canCreate && (
    <Link to={newProjectPath(kind)} className={linkButton}>
      <Plus className="size-4" aria-hidden />
      {text.create}
    </Link>
  );

  return (
    <div className="mx-auto max-w-5xl space-y-6" data-testid="projects-of-kind" data-kind={kind}>
      <PageTitle icon={Icon} title={text.plural} description={text.description} aside={create} />
      {kind === 'api' && (
        <Banner tone="warning" icon={AlertTriangle} testId="api-not-testable">
          {API_NOT_TESTABLE}
        </Banner>
      )}
      {list.isError ? (
        <Banner tone="error" icon={AlertTriangle} testId="projects-error">
          {errorText(list.error, 'Your projects could not be loaded')}
        </Banner>
      ) : list.isPending ? (
        <div className="flex justify-center rounded-2xl border border-slate-200 bg-white py-16 text-indigo-600">
          <Spinner className="size-7" label="Loading projects" />
        </div>
      ) : projects.length === 0 ? (
        <div
          className="flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center"
          data-testid="projects-empty"
        >
          <span className="flex size-12 items-center justify-center rounded-2xl bg-indigo-50 text-indigo-600 ring-1 ring-indigo-100">
            <FolderOpen className="size-6" aria-hidden />
          </span>
          <h2 className="mt-4 text-base font-semibold text-slate-900">{text.none}</h2>
          <p className="mt-1 max-w-md text-sm text-slate-600">
            Create one to keep its environments, sign-in details and saved test suites together.
          </p>
          {create && <div className="mt-5">{create}</div>}
        </div>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label={text.plural}>
          {projects.map((project) => (
            <li key={project.id}>
              <Link
                to={projectPagePath(project.id)}
                data-testid="project-card"
                className={cn(
                  'group flex h-full items-center gap-3 rounded-2xl border border-slate-200 bg-white px-4 py-4 shadow-xs transition',
                  'hover:border-indigo-300 hover:shadow-sm focus-visible:outline-2 focus-visible:outline-indigo-600',
                )}
              >
                <span
                  className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-base font-semibold text-indigo-700 ring-1 ring-indigo-100"
                  aria-hidden
                >
                  {project.name.trim().slice(0, 1).toUpperCase()}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-semibold text-slate-900">{project.name}</span>
                  <span
                    className="block truncate text-xs text-slate-600"
                    title={fullTime(project.updated_at)}
                  >
                    Changed {relativeTime(project.updated_at, now)}
                  </span>
                </span>
                <ChevronRight
                  className="size-4 shrink-0 text-slate-400 transition group-hover:translate-x-0.5 group-hover:text-indigo-600"
                  aria-hidden
                />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
