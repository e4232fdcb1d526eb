import { useEffect, useMemo } from 'react';
import {
  type AutomationProjects,
  AutomationScreen,
  type AutomationScreenProps,
  type ProjectPickerProps,
  type ProjectSuitesProps,
} from '../features/automation';
import {
  isSuiteVersionConflict,
  ProjectEnvironmentPicker,
  projectPagePath,
  useProject,
  useProjectSuites,
  useSaveSuite,
} from '../features/projects';
import { ApiError } from '../lib/api-client';

// The automation screen with projects (docs/PROJECTS.md): the projects feature's picker, suites and
// save, handed to the screen as slots (features do not import each other). Loaded with the screen.

/** The picker, also telling the screen the chosen project as loaded now, or that it is gone. */
function ProjectPicker({ value, onChange, onProject, disabled, className }: ProjectPickerProps) {
  const projectId = value.projectId;
  const project = useProject(projectId);
  const loaded = project.data;
  useEffect(() => {
    if (projectId && loaded?.id === projectId) onProject(projectId, loaded);
  }, [projectId, loaded, onProject]);
  const missing = project.error instanceof ApiError && project.error.status === 404;
  useEffect(() => {
    if (projectId && missing) onProject(projectId, null);
  }, [projectId, missing, onProject]);
  return (
    <ProjectEnvironmentPicker value={value} onChange={onChange} disabled={disabled} className={className} />
  );
}

/** A project's saved suites, for the save form. */
function ProjectSuites({ projectId, children }: ProjectSuitesProps) {
  const query = useProjectSuites(projectId || null);
  const { refetch } = query;
  return children({
    suites: query.data,
    loading: query.isLoading,
    failed: query.isError,
    reload: () => void refetch(),
  });
}

/** The automation screen, with the user's projects. */
export function AutomationWithProjects(props: Omit<AutomationScreenProps, 'projects'>) {
  const { mutateAsync } = useSaveSuite();
  const projects = useMemo<AutomationProjects>(
    () => ({
      Picker: ProjectPicker,
      Suites: ProjectSuites,
      saveSuite: mutateAsync,
      isVersionConflict: isSuiteVersionConflict,
      projectHref: projectPagePath,
    }),
    [mutateAsync],
  );
  return <AutomationScreen {...props} projects={projects} />;
}
