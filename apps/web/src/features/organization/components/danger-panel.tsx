import type { Organization } from '@argus/protocol';
import { LogOut, Trash2, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Panel } from '../../../components/panel';
import { errorText } from '../../../lib/api-error';
import { useCan, useOrganization } from '../../../lib/organization';
import { useDeleteOrganization, useLeaveOrganization } from '../api/organization';

/**
 * Leave the organization (any member; the last owner is refused in the server's words) or delete it
 * with everything it owns (owners). Neither for a personal organization. Afterwards the screens act
 * in the personal organization.
 */
export function DangerPanel({ org, userId }: { org: Organization; userId: string }) {
  const canLeave = useCan('POST /api/organization/leave');
  const canDelete = useCan('DELETE /api/organization');
  const { switchTo, refresh } = useOrganization();
  const navigate = useNavigate();
  const leave = useLeaveOrganization();
  const remove = useDeleteOrganization();
  const [asking, setAsking] = useState<'leave' | 'delete' | null>(null);

  if (org.personal || (!canLeave && !canDelete)) return null;

  const done = async (text: string) => {
    setAsking(null);
    switchTo(userId);
    await refresh();
    toast.success(text);
    navigate('/dashboard');
  };
  const failed = (fallback: string) => (failure: unknown) => {
    setAsking(null);
    toast.error(errorText(failure, fallback));
  };

  return (
    <Panel title="Leave or delete" icon={TriangleAlert} testId="org-danger-panel">
      <div className="flex flex-wrap gap-3">
        {canLeave && (
          <Button variant="secondary" onClick={() => setAsking('leave')}>
            <LogOut className="size-4" aria-hidden />
            Leave organization
          </Button>
        )}
        {canDelete && (
          <Button variant="danger" onClick={() => setAsking('delete')}>
            <Trash2 className="size-4" aria-hidden />
            Delete organization
          </Button>
        )}
      </div>
      <ConfirmDialog
        open={asking === 'leave'}
        title={`Leave ${org.name}?`}
        description="You lose access to its projects, runs and tokens until someone invites you again."
        confirmLabel="Leave organization"
        pending={leave.isPending}
        onConfirm={() =>
          leave.mutate(undefined, {
            onSuccess: () => done(`You left ${org.name}`),
            onError: failed('You could not leave the organization'),
          })
        }
        onClose={() => setAsking(null)}
      />
      <ConfirmDialog
        open={asking === 'delete'}
        title={`Delete ${org.name}?`}
        description="Its projects, suites, secrets, schedules, webhooks, runs, history and tokens are deleted for every member. This cannot be undone."
        confirmLabel="Delete organization"
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => done(`${org.name} was deleted`),
            onError: failed('The organization could not be deleted'),
          })
        }
        onClose={() => setAsking(null)}
      />
    </Panel>
  );
}
