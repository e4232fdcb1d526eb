import { GitMerge } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { errorText } from '../../../lib/api-error';
import { usePromoteBranch } from '../api/promote-branch';
import { promotedText, promoteText } from '../model/baselines';

/**
 * 'Promote to main': the branch's baselines become the default branch's (those that differ from its
 * own), once confirmed; a toast says how many were.
 */
export function PromoteBranch({
  projectId,
  environmentId,
  branch,
  count,
}: {
  projectId: string;
  environmentId: string;
  branch: string;
  count: number;
}) {
  const [confirming, setConfirming] = useState(false);
  const promote = usePromoteBranch();
  const [result, setResult] = useState<string | null>(null);

  const onConfirm = () =>
    promote.mutate(
      { projectId, environmentId, branch },
      {
        onSuccess: ({ promoted }) => {
          setConfirming(false);
          const text = promotedText(promoted, branch);
          setResult(text);
          toast.success(text);
        },
        onError: (error) => {
          setConfirming(false);
          toast.error(errorText(error, 'The baselines could not be promoted'));
        },
      },
    );

  return (
    <>
      <Button onClick={() => setConfirming(true)} disabled={promote.isPending || count === 0}>
        <GitMerge className="size-4" aria-hidden />
        Promote to main
      </Button>
      {result && (
        <p role="status" className="sr-only">
          {result}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Promote ${branch} to main?`}
        description={`${promoteText(count, branch)}. The default branch’s runs are compared with them from then on; its earlier baselines stay in their history.`}
        confirmLabel="Promote to main"
        pending={promote.isPending}
        onConfirm={onConfirm}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
