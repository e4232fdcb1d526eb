import type { Organization } from '@argus/protocol';
import { Building2, Loader2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Panel } from '../../../components/panel';
import { TextField } from '../../../components/text-field';
import { errorText } from '../../../lib/api-error';
import { useCan } from '../../../lib/organization';
import { useUpdateOrganization } from '../api/organization';
import { ROLE_NAMES } from '../model/roles';

/** The organization's name (owners rename it) and the caller's role there. */
export function GeneralPanel({ org }: { org: Organization }) {
  const canRename = useCan('PUT /api/organization');
  const update = useUpdateOrganization();
  const [name, setName] = useState(org.name);
  const [error, setError] = useState<string | undefined>();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!name.trim()) {
      setError('Name the organization');
      return;
    }
    update.mutate(
      { name: name.trim() },
      {
        onSuccess: (updated) => toast.success(`Renamed to “${updated.name}”`),
        onError: (failure) => setError(errorText(failure, 'The organization could not be renamed')),
      },
    );
  };

  return (
    <Panel
      title="Organization"
      icon={Building2}
      subtitle={org.personal ? 'Your personal organization' : 'Shared with its members'}
      aside={<Badge tone="indigo">You are {ROLE_NAMES[org.role].toLowerCase()}</Badge>}
      testId="org-general-panel"
    >
      {canRename ? (
        <form
          onSubmit={onSubmit}
          noValidate
          className="flex flex-wrap items-end gap-3"
          aria-label="Rename organization"
        >
          <TextField
            label="Name"
            className="min-w-0 flex-1 basis-56"
            value={name}
            maxLength={100}
            error={error}
            onChange={(e) => {
              setName(e.target.value);
              setError(undefined);
            }}
          />
          <Button type="submit" variant="secondary" disabled={update.isPending || name.trim() === org.name}>
            {update.isPending && <Loader2 className="size-4 animate-spin" aria-hidden />}
            Rename
          </Button>
        </form>
      ) : (
        <dl className="text-sm">
          <dt className="text-xs font-medium text-slate-500">Name</dt>
          <dd className="mt-1 font-medium text-slate-900" data-testid="org-name">
            {org.name}
          </dd>
        </dl>
      )}
    </Panel>
  );
}
