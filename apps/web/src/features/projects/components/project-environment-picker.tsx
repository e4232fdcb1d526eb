import type { Environment, Project, ProjectKind } from '@argus/protocol';
import { useEffect } from 'react';
import { SelectField } from '../../../components/select-field';
import { cn } from '../../../lib/cn';
import { useProjectList } from '../../../lib/projects/project-list';
import { useProject } from '../api/get-project';
import { KIND_TEXT } from '../model/kinds';

export interface ProjectEnvironmentValue {
  projectId: string | null;
  environmentId: string | null;
}

/** What was chosen, once the project has loaded: the project and the environment (with its base URL). */
export interface ProjectEnvironmentChoice {
  project: Project;
  environment: Environment;
}

export interface ProjectEnvironmentPickerProps {
  value: ProjectEnvironmentValue;
  /** `choice` is null while no project is chosen, or while the chosen one loads. */
  onChange: (value: ProjectEnvironmentValue, choice: ProjectEnvironmentChoice | null) => void;
  /** Which kinds may be chosen. @default ['web', 'mobile'] (API projects cannot be tested yet) */
  kinds?: readonly ProjectKind[];
  disabled?: boolean;
  className?: string;
}

/**
 * Choose a project, then one of its environments (its default at first): for a screen that runs or
 * saves tests in a project's name. The environment follows the project; a project that no longer
 * exists clears the choice.
 */
export function ProjectEnvironmentPicker({
  value,
  onChange,
  kinds = ['web', 'mobile'],
  disabled,
  className,
}: ProjectEnvironmentPickerProps) {
  const list = useProjectList();
  const project = useProject(value.projectId);
  const projects = (list.data ?? [])
    .filter((p) => kinds.includes(p.kind))
    .sort((a, b) => a.name.localeCompare(b.name));
  const environments = project.data?.environments ?? [];

  // Once the project has loaded: its default environment when none (or another project's) is chosen.
  useEffect(() => {
    const loaded = project.data;
    if (!loaded || loaded.id !== value.projectId) return;
    const current = loaded.environments.find((env) => env.id === value.environmentId);
    if (current) return;
    const fallback = loaded.environments.find((env) => env.is_default) ?? loaded.environments[0];
    if (fallback)
      onChange(
        { projectId: loaded.id, environmentId: fallback.id },
        { project: loaded, environment: fallback },
      );
  }, [project.data, value.projectId, value.environmentId, onChange]);

  const projectOptions = [
    {
      value: '',
      label: list.isPending ? 'Loading projects...' : projects.length ? 'No project' : 'No projects yet',
    },
    ...projects.map((p) => ({ value: p.id, label: `${p.name} (${KIND_TEXT[p.kind].short})` })),
  ];

  return (
    <div className={cn('grid gap-3 sm:grid-cols-2', className)} data-testid="project-environment-picker">
      <SelectField
        label="Project"
        value={value.projectId ?? ''}
        disabled={disabled || list.isPending}
        onChange={(event) => onChange({ projectId: event.target.value || null, environmentId: null }, null)}
        options={projectOptions}
      />
      <SelectField
        label="Environment"
        value={value.environmentId ?? ''}
        disabled={disabled || !project.data}
        onChange={(event) => {
          const environment = environments.find((env) => env.id === event.target.value);
          if (project.data && environment)
            onChange(
              { projectId: project.data.id, environmentId: environment.id },
              { project: project.data, environment },
            );
        }}
        options={
          environments.length
            ? environments.map((env) => ({
                value: env.id,
                label: `${env.name}${env.is_default ? ' (default)' : ''}`,
              }))
            : [{ value: '', label: value.projectId ? 'Loading...' : 'Choose a project first' }]
        }
        hint={project.data?.environments.find((env) => env.id === value.environmentId)?.base_url}
      />
      {list.isError && (
        <p role="alert" className="text-xs text-red-700 sm:col-span-2">
          Your projects could not be loaded.
        </p>
      )}
    </div>
  );
}
