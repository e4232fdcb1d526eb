import { BaselineHistoryList } from '../../../components/baseline-history-list';
import { useBaselineHistory } from '../api/get-baseline-history';
import { useRestoreBaseline } from '../api/restore-baseline';
import { baselineText } from '../model/review';

/** A reviewed check's baseline history, with Restore (components/baseline-history-list.tsx). */
export function BaselineHistory({
  baselineId,
  title,
  canRestore,
}: {
  baselineId: string;
  /** 'Checkout, Whole page': what the history is of. */
  title: string;
  canRestore: boolean;
}) {
  return (
    <BaselineHistoryList
      title={title}
      history={useBaselineHistory(baselineId, true)}
      restore={useRestoreBaseline()}
      canRestore={canRestore}
      describe={(baseline) => baselineText(baseline)}
    />
  );
}
