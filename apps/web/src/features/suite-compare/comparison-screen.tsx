import { ArrowLeft, GitCompareArrows, RefreshCw } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '../../components/badge';
import { ScreenHeader } from '../../components/screen-header';
import { Spinner } from '../../components/spinner';
import { errorText } from '../../lib/api-error';
import { useComparison } from './api/get-comparison';
import { useSuite } from './api/get-context';
import { ComparisonReview } from './components/comparison-review';
import { countsText } from './model/comparison';
import { suiteRegeneratePath } from './model/paths';
import { backLinkClass } from './regenerate-screen';

/**
 * /projects/:id/suites/:suiteId/comparisons/:comparisonId: a regeneration against the saved suite, to
 * accept case by case into a new version.
 */
export function ComparisonScreen({
  projectId,
  suiteId,
  comparisonId,
}: {
  projectId: string;
  suiteId: string;
  comparisonId: string;
}) {
  const suite = useSuite(projectId, suiteId);
  const comparison = useComparison(projectId, suiteId, comparisonId);
  const name = suite.data?.name ?? 'saved suite';
  return (
    <div className="mx-auto w-full max-w-6xl space-y-5" data-testid="comparison-page">
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
        <Link to={`/projects/${encodeURIComponent(projectId)}`} className={backLinkClass}>
          <ArrowLeft className="size-4" aria-hidden />
          Project
        </Link>
        <Link to={suiteRegeneratePath(projectId, suiteId)} className={backLinkClass}>
          <RefreshCw className="size-4" aria-hidden />
          Regenerate again
        </Link>
      </div>
      <ScreenHeader
        icon={GitCompareArrows}
        title={`Regenerated ${name}`}
        titleClassName="basis-60"
        description={
          <p className="mt-1 text-sm text-slate-600" data-testid="comparison-counts">
            {comparison.data
              ? `${countsText(comparison.data)} · against version ${comparison.data.suite_version} · ${comparison.data.engine}`
              : 'The generation compared with the saved suite'}
          </p>
        }
        aside={suite.data ? <Badge tone="indigo">v{suite.data.version}</Badge> : null}
      />
      {comparison.isPending ? (
        <div className="flex justify-center py-10 text-indigo-600">
          <Spinner label="Loading the comparison" />
        </div>
      ) : comparison.isError ? (
        <p className="rounded-2xl border border-red-200 bg-red-50 p-5 text-sm text-red-800" role="alert">
          {errorText(comparison.error, 'The comparison could not be loaded')}
        </p>
      ) : (
        <section
          aria-label="Changes"
          className="rounded-2xl border border-slate-200 bg-white px-5 pt-5 shadow-xs"
        >
          <ComparisonReview comparison={comparison.data} />
        </section>
      )}
    </div>
  );
}
