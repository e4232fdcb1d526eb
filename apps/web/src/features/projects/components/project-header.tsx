import type { Project } from '@argus/protocol';
import { Loader2, Pencil, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ScreenHeader } from '../../../components/screen-header';
import { SmallButton } from '../../../components/small-button';
import { TextAreaField } from '../../../components/text-area-field';
import { TextField } from '../../../components/text-field';
import { errorText } from '../../../lib/api-error';
import { useCan } from '../../../lib/organization';
import { useDeleteProject } from '../api/delete-project';
import { useUpdateProject } from '../api/update-project';
import { fullTime, relativeTime } from '../model/format';
import { KIND_TEXT } from '../model/kinds';
import { checkProjectDetails } from '../model/project-form';
import { KIND_ICON } from './kind-icons';

function DetailsForm({ project, onDone }: { project: Project; onDone: () => void }) {
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description);
  const [errors, setErrors] = useState<{ name?: string; description?: string }>({});
  const save = useUpdateProject(project.id);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkProjectDetails({ name, description });
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    save.mutate(checked.body, {
      onSuccess: () => {
        toast.success('Project saved');
        onDone();
      },
      onError: (error) => toast.error(errorText(error, 'The project could not be saved')),
    });
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="mt-5 space-y-4 border-t border-slate-100 pt-5"
      aria-label="Project details"
    >
      <TextField
        label="Name"
        autoComplete="off"
        maxLength={200}
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          setErrors((current) => ({ ...current, name: undefined }));
        }}
        error={errors.name}
      />
      <TextAreaField
        label="Description (optional)"
        rows={3}
        maxLength={2000}
        value={description}
        onChange={(event) => {
          setDescription(event.target.value);
          setErrors((current) => ({ ...current, description: undefined }));
        }}
        error={errors.description}
      />
      <div className="flex justify-end gap-3">
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending && <Loader2 className="size-4 animate-spin" aria-hidden />}
          Save
        </Button>
      </div>
    </form>
  );
}

/** The project's name, kind and description, editable; and deleting it. */
export function ProjectHeader({ project }: { project: Project }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteProject(project.id);
  const navigate = useNavigate();
  const kind = KIND_TEXT[project.kind];

  const onDelete = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        toast.success('Project deleted');
        navigate(kind.path, { replace: true });
      },
      onError: (error) => {
        setConfirming(false);
        toast.error(errorText(error, 'The project could not be deleted'));
      },
    });

  const canEdit = useCan('PUT /api/projects/:id');
  const canDelete = useCan('DELETE /api/projects/:id');
  return (
    <>
      <ScreenHeader
        icon={KIND_ICON[project.kind]}
        title={project.name}
        titleClassName="basis-64"
        description={
          <div className="mt-1.5 space-y-2">
            <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600">
              <Badge tone="indigo" data-testid="project-kind">
                {kind.label}
              </Badge>
              <span title={fullTime(project.updated_at)}>Changed {relativeTime(project.updated_at)}</span>
            </p>
            <p
              className="max-w-3xl text-sm whitespace-pre-line text-slate-600"
              data-testid="project-description"
            >
              {project.description || 'No description.'}
            </p>
          </div>
        }
        aside={
          editing || !(canEdit || canDelete) ? null : (
            <div className="flex shrink-0 gap-2">
              {canEdit && (
                <SmallButton icon={Pencil} onClick={() => setEditing(true)}>
                  Edit
                </SmallButton>
              )}
              {canDelete && (
                <SmallButton variant="ghost" icon={Trash2} onClick={() => setConfirming(true)}>
                  Delete
                </SmallButton>
              )}
            </div>
          )
        }
      >
        {editing && <DetailsForm project={project} onDone={() => setEditing(false)} />}
      </ScreenHeader>
      <ConfirmDialog
        open={confirming}
        title={`Delete ${project.name}?`}
        description="Its environments, variables, secrets, login and saved suites are deleted. This cannot be undone."
        confirmLabel="Delete project"
        pending={remove.isPending}
        onConfirm={onDelete}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
