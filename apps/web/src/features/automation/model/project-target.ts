import type { JsonObject, Project } from '@argus/protocol';

/**
 * The project environment the screen's work runs on (docs/PROJECTS.md): chosen next to the URL, it
 * makes generation and runs sign in with the project's login and fill its `{{NAME}}` values. No
 * project: a bare URL, as before projects existed.
 */

/** What is chosen: a project and one of its environments (both null: none). */
export interface ProjectSelection {
  projectId: string | null;
  environmentId: string | null;
}

export const NO_PROJECT: ProjectSelection = { projectId: null, environmentId: null };

/** The choice with the project as last loaded (its names, environments and login). */
export interface ProjectChoiceState {
  selection: ProjectSelection;
  /** The chosen project as loaded, or null while it loads (or when none is chosen). */
  project: Project | null;
}

export const NO_PROJECT_STATE: ProjectChoiceState = { selection: NO_PROJECT, project: null };

/** The chosen environment, resolved: what the requests name and the screen says. */
export interface ProjectTarget {
  projectId: string;
  projectName: string;
  environmentId: string;
  environmentName: string;
  baseUrl: string;
  /** The project has a login: the work runs signed in. */
  signsIn: boolean;
  /** A mobile project: its runs use a phone's viewport. */
  mobile: boolean;
}

export type ProjectChoiceAction =
  /** The picker: a project (its environment still loading: no project given), or an environment, or none. */
  | { type: 'choose'; selection: ProjectSelection; project: Project | null }
  /** The chosen project as loaded now; null when it no longer exists (the choice is cleared). */
  | { type: 'loaded'; projectId: string; project: Project | null }
  /** What the session kept, or the session of work already under way. */
  | { type: 'restore'; selection: ProjectSelection };

export function projectChoiceReducer(
  state: ProjectChoiceState,
  action: ProjectChoiceAction,
): ProjectChoiceState {
  switch (action.type) {
    case 'choose': {
      const { selection } = action;
      if (!selection.projectId) return NO_PROJECT_STATE;
      const project =
        action.project?.id === selection.projectId
          ? action.project
          : state.project?.id === selection.projectId
            ? state.project
            : null;
      return { selection, project };
    }
    case 'loaded':
      if (action.projectId !== state.selection.projectId) return state;
      if (!action.project) return NO_PROJECT_STATE;
      return state.project === action.project ? state : { ...state, project: action.project };
    case 'restore':
      if (
        action.selection.projectId === state.selection.projectId &&
        action.selection.environmentId === state.selection.environmentId
      )
        return state;
      return { selection: action.selection, project: null };
  }
}

/** The chosen environment once its project has loaded; null with no project, or while it loads. */
export function resolveTarget({ selection, project }: ProjectChoiceState): ProjectTarget | null {
  if (!selection.projectId || !project || project.id !== selection.projectId) return null;
  const environment = project.environments.find((env) => env.id === selection.environmentId);
  if (!environment) return null;
  return {
    projectId: project.id,
    projectName: project.name,
    environmentId: environment.id,
    environmentName: environment.name,
    baseUrl: environment.base_url,
    signsIn: project.login.mode !== 'none',
    mobile: project.kind === 'mobile',
  };
}

/** A project is chosen but not resolved yet (loading, or its environment not picked): nothing may start. */
export function isResolving(state: ProjectChoiceState): boolean {
  return state.selection.projectId !== null && resolveTarget(state) === null;
}

/** What generation and run requests add: the project and environment, or nothing. */
export function targetIds(
  target: ProjectTarget | null,
): { project_id: string; environment_id: string } | Record<string, never> {
  return target ? { project_id: target.projectId, environment_id: target.environmentId } : {};
}

/**
 * The URL after choosing an environment: one on the previous environment's address keeps its path
 * there (staging's /tickets becomes production's /tickets); anything else becomes the base URL.
 */
export function rebaseUrl(url: string, fromBase: string | null, toBase: string): string {
  const current = url.trim();
  const from = fromBase?.replace(/\/+$/, '');
  if (!from || !current.startsWith(from)) return toBase;
  const rest = current.slice(from.length);
  if (rest === '' || rest === '/') return toBase;
  // 'https://shop.test' does not hold 'https://shop.test.evil/…': the base must end where a path starts.
  if (!/^[/?#]/.test(rest)) return toBase;
  return toBase.replace(/\/+$/, '') + rest;
}

function originOf(url: string): string | null {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return null;
  }
}

/** Why `url` cannot be worked on in the chosen environment (the server would refuse it), or null. */
export function urlProblem(url: string, target: ProjectTarget | null): string | null {
  if (!target) return null;
  const origin = originOf(url);
  if (origin === null || origin === originOf(target.baseUrl)) return null;
  return `Use an address on ${target.environmentName} (${target.baseUrl}), or choose no project`;
}

/** One line saying where the work runs, and how. */
export function targetNote(target: ProjectTarget): string {
  const where = `On ${target.projectName}/${target.environmentName}`;
  const how = target.signsIn ? ", signed in with the project's login" : ' (the project has no login)';
  return `${where}${how}${target.mobile ? ", in a phone's viewport" : ''}`;
}

/** What is kept in the session's settings (`settings.project`): the ids only, the rest is loaded. */
export function selectionSettings(selection: ProjectSelection): JsonObject {
  return {
    project: selection.projectId
      ? { projectId: selection.projectId, environmentId: selection.environmentId }
      : null,
  };
}

/** Reads `settings.project` back; anything malformed is no project. */
export function readSelection(value: unknown): ProjectSelection {
  if (!value || typeof value !== 'object') return NO_PROJECT;
  const { projectId, environmentId } = value as Record<string, unknown>;
  if (typeof projectId !== 'string' || !projectId) return NO_PROJECT;
  return {
    projectId,
    environmentId: typeof environmentId === 'string' && environmentId ? environmentId : null,
  };
}
