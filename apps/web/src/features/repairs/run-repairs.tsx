import { Wrench } from 'lucide-react';
import { Panel } from '../../components/panel';
import { Spinner } from '../../components/spinner';
import { errorText } from '../../lib/api-error';
import { useRunRepairs } from './api/list-run-repairs';
import { RepairsReview } from './components/repairs-review';
import { repairsLabel } from './model/review';

/** The run page's 'Repairs' tab (?tab=repairs): every verdict of the run's failed cases, to review. */
export function RunRepairs({ runId }: { runId: string }) {
  const list = useRunRepairs(runId);
  return (
    <Panel
      title="Repairs"
      icon={Wrench}
      subtitle="Proved repairs to review, and failures that look like bugs"
      testId="run-repairs"
    >
      {list.isPending ? (
        <div className="flex justify-center py-6 text-indigo-600">
          <Spinner label="Loading repairs" />
        </div>
      ) : list.isError ? (
        <p className="text-sm text-red-700" role="alert">
          {errorText(list.error, 'The repairs could not be loaded')}
        </p>
      ) : (
        <RepairsReview
          repairs={list.data.repairs}
          emptyTitle="No repairs for this run"
          emptyHint="When a case of a saved suite fails because the app changed, a proved repair is proposed here to review."
        />
      )}
    </Panel>
  );
}

/** The tab's name: 'Repairs (2)' while proposals wait. */
export function RunRepairsTabLabel({ runId }: { runId: string }) {
  const list = useRunRepairs(runId);
  return <>{repairsLabel(list.data?.proposed)}</>;
}
