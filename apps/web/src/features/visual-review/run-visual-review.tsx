import { ScanEye } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { Panel } from '../../components/panel';
import { Spinner } from '../../components/spinner';
import { ApiError, errorText } from '../../lib/api-error';
import { useRunVisualChecks } from './api/list-run-checks';
import { VisualReviewList } from './components/visual-review-list';
import { reviewLabel } from './model/review';

/**
 * The run page's 'Review' tab (issue 40): the run's visual checks, those that changed or are new to
 * approve or reject, titled with how many wait ('Review (3)'); a run without visual checks says how a
 * case takes one. The run's review link (`?tab=review`, what the CLI, JUnit and webhooks give) opens
 * it and brings it into view once loaded.
 */
export function RunVisualReview({ runId }: { runId: string }) {
  const list = useRunVisualChecks(runId);
  const [search] = useSearchParams();
  const linked = search.get('tab') === 'review';
  const loaded = list.isSuccess;
  const section = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (linked && loaded) section.current?.scrollIntoView({ block: 'start' });
  }, [linked, loaded]);
  // A server that keeps no visual checks answers 404: nothing to review, as for a run without any.
  const none =
    (list.isSuccess && list.data.checks.length === 0) ||
    (list.error instanceof ApiError && list.error.status === 404);
  return (
    <div ref={section} id="review" className="scroll-mt-4">
      <Panel
        title={reviewLabel(list.data?.to_review)}
        icon={ScanEye}
        subtitle="Visual checks: changes to approve or reject"
        testId="run-visual-review"
      >
        {none ? (
          <p className="text-sm text-slate-600" data-testid="visual-review-empty">
            This run took no visual checks. A case checks the page with a step{' '}
            <code className="rounded bg-slate-100 px-1">Verify the page looks as approved</code>, or after
            every case when its suite's 'Visual check after every case' is on.
          </p>
        ) : list.isPending ? (
          <div className="flex justify-center py-6 text-indigo-600">
            <Spinner label="Loading the visual checks" />
          </div>
        ) : list.isError ? (
          <p className="text-sm text-red-700" role="alert">
            {errorText(list.error, 'The visual checks could not be loaded')}
          </p>
        ) : (
          <VisualReviewList runId={runId} checks={list.data.checks} />
        )}
      </Panel>
    </div>
  );
}

/** The section's name alone: 'Review (3)' while checks wait, for a tab or a link. */
export function RunVisualReviewLabel({ runId }: { runId: string }) {
  const list = useRunVisualChecks(runId);
  return <>{reviewLabel(list.data?.to_review)}</>;
}
