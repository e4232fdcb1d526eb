import type { Environment, Project, SavedSuite, User } from '@argus/protocol';
import type { ComponentType, ReactNode } from 'react';
import type { ScreenRealtime } from '../../lib/screen-realtime';
import type { ScreenSessionStore } from '../../lib/sessions/screen-session';
import type { ProjectSelection } from './model/project-target';
import type { SaveSuiteRequest } from './model/save-to-project';

/** What the screen needs from the realtime socket (see ScreenRealtime). */
export type AutomationRealtime = ScreenRealtime;

export interface ProjectPickerProps {
  value: ProjectSelection;
  /**
   * The user chose a project (`choice` null while its environments load), an environment, or none;
   * also when the picker falls back to the project's default environment.
   */
  onChange: (value: ProjectSelection, choice: { project: Project; environment: Environment } | null) => void;
  /** The chosen project as loaded now (renamed, its login changed), or null once it no longer exists. */
  onProject: (projectId: string, project: Project | null) => void;
  disabled?: boolean;
  className?: string;
}

/** A project's saved suites, as the save form lists them. */
export interface ProjectSuitesState {
  suites: readonly SavedSuite[] | undefined;
  loading: boolean;
  failed: boolean;
  reload: () => void;
}

export interface ProjectSuitesProps {
  projectId: string;
  children: (state: ProjectSuitesState) => ReactNode;
}

/**
 * What the screen does with projects (docs/PROJECTS.md), composed in by the app from the projects
 * feature: features do not import each other.
 */
export interface AutomationProjects {
  /** Choose a project and one of its environments. */
  Picker: ComponentType<ProjectPickerProps>;
  /** A project's saved suites (a render prop). */
  Suites: ComponentType<ProjectSuitesProps>;
  /** Saves a new suite, or a new version of one; rejects as the API does. */
  saveSuite: (request: SaveSuiteRequest) => Promise<SavedSuite>;
  /** A save refused because the suite has a newer version than the one it started from (409). */
  isVersionConflict: (error: unknown) => boolean;
  /** The address of a project's page. */
  projectHref: (projectId: string) => string;
}

export interface AutomationScreenProps {
  /** The signed-in user, or null (then the screen asks to log in). */
  user: User | null;
  realtime: AutomationRealtime;
  /** The app's sessions store: the screen's work is kept with an automation session. */
  sessions: ScreenSessionStore;
  /** Work on a project's environment, and save suites to projects; absent: bare URLs only. */
  projects?: AutomationProjects;
}
