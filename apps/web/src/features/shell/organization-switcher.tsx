import type { Role } from '@argus/protocol';
import { useMutation } from '@tanstack/react-query';
import { Building2, ChevronsUpDown, Loader2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import toast from 'react-hot-toast';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { TextField } from '../../components/text-field';
import { errorText } from '../../lib/api-error';
import { cn } from '../../lib/cn';
import { createOrganization, useOrganization } from '../../lib/organization';

/** The select's value for 'New organization…' (no organization id looks like it). */
const NEW_ORGANIZATION = '__new__';

export const ROLE_NAMES: Record<Role, string> = {
  viewer: 'Viewer',
  runner: 'Runner',
  editor: 'Editor',
  admin: 'Admin',
  owner: 'Owner',
};

/** Pages of one record (a project, a run) that the next organization does not have. */
const RECORD_PAGE = /^\/(projects\/(?!(web|mobile|api|new)$)|history\/runs\/)/;

/** 'New organization…': a name, then the user owns it and the screens act in it. */
function NewOrganizationDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { switchTo, refresh } = useOrganization();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const create = useMutation({ mutationFn: createOrganization });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!name.trim()) {
      setError('Name the organization');
      return;
    }
    create.mutate(name.trim(), {
      onSuccess: async (org) => {
        await refresh();
        switchTo(org.id);
        toast.success(`Organization “${org.name}” created`);
        setName('');
        onClose();
        navigate('/organization');
      },
      onError: (failure) => setError(errorText(failure, 'The organization could not be created')),
    });
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="New organization"
      description="Projects, runs and tokens made in it are shared with the members you invite. You will be its owner."
    >
      <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="New organization">
        <TextField
          label="Organization name"
          placeholder="Acme QA"
          value={name}
          maxLength={100}
          error={error}
          onChange={(e) => {
            setName(e.target.value);
            setError(undefined);
          }}
        />
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending && <Loader2 className="size-4 animate-spin" aria-hidden />}
            Create organization
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * The sidebar's organization switcher (docs/ORGANIZATIONS.md): the user's organizations with their
 * role, the personal one first, and 'New organization…'. A native select, so keyboards, screen
 * readers and phones get their own picker. Collapsed to the icon rail it shows the mark alone.
 */
export function OrganizationSwitcher({ compact }: { compact: boolean }) {
  const { organizations, currentId, current, switchTo } = useOrganization();
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const id = useId();

  const onChange = (value: string) => {
    if (value === NEW_ORGANIZATION) {
      setCreating(true);
      return;
    }
    if (value === currentId) return;
    switchTo(value);
    const next = organizations.find((org) => org.id === value);
    if (next) toast.success(`Now in ${next.name}`, { id: 'organization-switched' });
    // A list screen shows the next organization's list; a record of the last one is not in it.
    if (RECORD_PAGE.test(pathname)) navigate('/dashboard');
  };

  return (
    <div className={cn('border-b border-slate-100 px-3 py-3', compact && 'px-2')} data-testid="org-switcher">
      {compact ? (
        <span
          className="mx-auto flex size-9 items-center justify-center rounded-lg bg-slate-100 text-slate-600"
          title={current ? `${current.name} (${ROLE_NAMES[current.role]})` : 'Organization'}
        >
          <Building2 className="size-[18px]" aria-hidden />
          <span className="sr-only">{current?.name ?? 'Organization'}</span>
        </span>
      ) : (
        <>
          <label
            htmlFor={id}
            className="px-1 text-[11px] font-semibold tracking-wider text-slate-500 uppercase"
          >
            Organization
          </label>
          <div className="relative mt-1.5">
            <Building2
              className="pointer-events-none absolute inset-y-0 left-3 my-auto size-4 text-slate-500"
              aria-hidden
            />
            <select
              id={id}
              value={currentId ?? ''}
              onChange={(e) => onChange(e.target.value)}
              data-testid="org-select"
              className="block w-full appearance-none truncate rounded-lg border border-slate-300 bg-white py-2 pr-9 pl-9 text-sm font-medium text-slate-900 shadow-xs transition focus:border-indigo-500 focus:ring-4 focus:ring-indigo-100 focus:outline-none"
            >
              {organizations.length === 0 && <option value={currentId ?? ''}>Loading…</option>}
              {organizations.map((org) => (
                <option key={org.id} value={org.id}>
                  {org.personal ? `${org.name} (personal)` : org.name} · {ROLE_NAMES[org.role]}
                </option>
              ))}
              <option value={NEW_ORGANIZATION}>New organization…</option>
            </select>
            <ChevronsUpDown
              className="pointer-events-none absolute inset-y-0 right-3 my-auto size-4 text-slate-500"
              aria-hidden
            />
          </div>
        </>
      )}
      <NewOrganizationDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
