import type { SavedSuite } from '@argus/protocol';
import { ArrowLeft, Wrench } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '../../components/badge';
import { ScreenHeader } from '../../components/screen-header';
import { Spinner } from '../../components/spinner';
import { errorText } from '../../lib/api-error';
import { useSuite } from './api/get-suite';
import { useSuiteRepairs } from './api/list-suite-repairs';
import { RepairsReview } from './components/repairs-review';
import { suiteRepairsPath } from './model/paths';
import { repairsLabel } from './model/review';

const linkClass =
  'inline-flex items-center gap-1 text-sm font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600';

/**
 * /projects/:id/suites/:suiteId/repairs: the suite's proposals waiting for review, from every run
 * (docs/REPAIRS.md); approving saves one new version of the suite.
 */
export function SuiteRepairsScreen({ projectId, suiteId }: { projectId: string; suiteId: string }) {
  const suite = useSuite(projectId, suiteId);
  const list = useSuiteRepairs(projectId, suiteId);
  const name = suite.data?.name ?? 'Saved suite';
  return (
    <div className="mx-auto w-full max-w-6xl space-y-5" data-testid="suite-repairs-page">
      <Link to={`/projects/${encodeURIComponent(projectId)}`} className={linkClass}>
        <ArrowLeft className="size-4" aria-hidden />
        Project
      </Link>
      <ScreenHeader
        icon={Wrench}
        title={`Repairs of ${name}`}
        titleClassName="basis-60"
        description={
          <p className="mt-1 text-sm text-slate-600">
            Proposals waiting for review, from the suite’s failed runs. Approving saves one new version.
          </p>
        }
        aside={suite.data ? <Badge tone="indigo">v{suite.data.version}</Badge> : null}
      />
      {list.isPending ? (
        <div className="flex justify-center py-10 text-indigo-600">
          <Spinner label="Loading repairs" />
        </div>
      ) : list.isError ? (
        <p className="rounded-2xl border border-red-200 bg-red-50 p-5 text-sm text-red-800" role="alert">
          {errorText(list.error, 'The repairs could not be loaded')}
        </p>
      ) : (
        <RepairsReview
          repairs={list.data.repairs}
          emptyTitle="No repairs waiting for review"
          emptyHint="When a case of this suite fails because the app changed, a proved repair is proposed here."
        />
      )}
    </div>
  );
}

/** The suites list's entry: 'Repairs (2)', a link to the suite's review. */
export function SuiteRepairsEntry({ suite }: { suite: SavedSuite }) {
  const list = useSuiteRepairs(suite.project_id, suite.id);
  const waiting = list.data?.proposed ?? 0;
  return (
    <Link
      to={suiteRepairsPath(suite.project_id, suite.id)}
      className={`${linkClass} text-xs`}
      data-testid="suite-repairs-link"
      aria-label={`${repairsLabel(waiting)} of ${suite.name}`}
    >
      <Wrench className="size-3.5" aria-hidden />
      {repairsLabel(waiting)}
    </Link>
  );
}
