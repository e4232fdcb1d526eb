import { BaselineHistoryList } from '../../../components/baseline-history-list';
import { useBaselineHistory } from '../api/get-history';
import { useRestoreBaseline } from '../api/restore-baseline';
import { approvedText } from '../model/baselines';

/** A check's baseline history on the baselines screen, with Restore (components/baseline-history-list.tsx). */
export function BaselineHistory({
  baselineId,
  title,
  canRestore,
  onImageError,
}: {
  baselineId: string;
  /** 'Checkout, Whole page': what the history is of. */
  title: string;
  canRestore: boolean;
  onImageError: () => void;
}) {
  return (
    <BaselineHistoryList
      title={title}
      history={useBaselineHistory(baselineId, true)}
      restore={useRestoreBaseline()}
      canRestore={canRestore}
      describe={(baseline) => approvedText(baseline)}
      onImageError={onImageError}
      toastResults
    />
  );
}
