import { useMemo } from 'react';
import {
  type ConversationalProjectDetails,
  type ConversationalProjects,
  ConversationalScreen,
  type ConversationalScreenProps,
} from '../features/conversational';
import { projectPagePath, useProject, useProjectVariables, useUpdateProject } from '../features/projects';
import { useProjectList } from '../lib/projects/project-list';

// The conversational screen with projects (docs/PROJECTS.md#sites-behind-a-login): 'Use as login'
// saves a conversation's steps as a project's recorded login, with the projects feature's queries and
// save handed to the screen (features do not import each other). Loaded with the screen.

function useProjectChoices() {
  const list = useProjectList();
  return { projects: list.data, failed: list.isError };
}

function useProjectLogin(projectId: string) {
  const project = useProject(projectId);
  const variables = useProjectVariables(projectId);
  const update = useUpdateProject(projectId);
  const data = project.data;
  const vars = variables.data;
  const details = useMemo<ConversationalProjectDetails | undefined>(() => {
    if (!data) return undefined;
    const environments = [...data.environments].sort((a, b) => Number(b.is_default) - Number(a.is_default));
    return {
      name: data.name,
      baseUrls: environments.map((environment) => environment.base_url),
      loginMode: data.login.mode,
      secrets: vars ? [...new Set(vars.filter((v) => v.secret).map((v) => v.name))] : null,
    };
  }, [data, vars]);
  const { mutateAsync } = update;
  return {
    project: details,
    failed: project.isError,
    saveLogin: async (steps: string[]) => {
      await mutateAsync({ login: { mode: 'steps', steps } });
    },
    saving: update.isPending,
  };
}

const PROJECTS: ConversationalProjects = {
  useProjectChoices,
  useProjectLogin,
  projectHref: projectPagePath,
  newProjectHref: '/projects/new?kind=web',
};

/** The conversational screen, with the user's projects. */
export function ConversationalWithProjects(props: Omit<ConversationalScreenProps, 'projects'>) {
  return <ConversationalScreen {...props} projects={PROJECTS} />;
}
