import type { JsonObject, User } from '@argus/protocol';
import type { ScreenRealtime } from '../../lib/screen-realtime';

/** What the screen needs from the realtime socket (see ScreenRealtime), with the last error too. */
export interface ConversationalRealtime extends ScreenRealtime {
  lastError: string | null;
}

/** A session as the screen reads it (the sessions store's client sessions fit). */
export interface ConversationalStoredSession {
  id: string;
  type: string;
  title: string;
  status: string;
  url: string | null;
  updatedAt: string;
}

/**
 * What the screen needs from the sessions store (the app passes its sessions context value): a
 * conversational session per start (docs/PRODUCT.md#sessions), marked cancelled with its stop time and reason when it
 * stops; the automation sessions a conversation can be saved into.
 */
export interface ConversationalSessions {
  sessions: readonly ConversationalStoredSession[];
  /** Reports its own failures (a toast) and rejects; a server failure gives a local-only session. */
  createSession(input: {
    type: 'conversational';
    title: string;
    name?: string;
    url?: string | null;
    description?: string | null;
    settings?: JsonObject;
    metadata?: { [key: string]: unknown };
  }): Promise<{ id: string }>;
  /** Reports its own failures; the change is kept in this browser. */
  updateSession(
    id: string,
    patch: { status?: 'cancelled'; url?: string | null; metadata?: { [key: string]: unknown } },
  ): Promise<unknown>;
  /** Reloads the list (a saved test may have made a new automation session). */
  refresh(): Promise<unknown>;
}

export interface ConversationalScreenProps {
  /** The signed-in user (its id names the orphan clean-up). */
  user: User | null;
  realtime: ConversationalRealtime;
  sessions: ConversationalSessions;
  /** docs/PRODUCT.md#stopping-a-conversation: the page-unload beacon to /cleanup for this session; true when the browser queued it. */
  sendUnloadBeacon: (sessionId: string | null) => boolean;
  /** The user's projects, for 'Use as login' (app/ composes them from the projects feature); absent: no such action. */
  projects?: ConversationalProjects;
}

/** A project 'Use as login' can save to. */
export interface ConversationalProjectChoice {
  id: string;
  name: string;
}

/** What 'Use as login' needs of the chosen project. */
export interface ConversationalProjectDetails {
  name: string;
  /** Its environments' base URLs, the default first: pages on them become relative. */
  baseUrls: string[];
  /** The login it has now (saving replaces it). */
  loginMode: 'none' | 'credentials' | 'steps';
  /** The names of its secrets (any environment); null while they load or could not be read. */
  secrets: string[] | null;
}

/**
 * The projects, handed in by the app (features do not import each other): hooks, called at the top
 * of the components that need them.
 */
export interface ConversationalProjects {
  /** The user's projects (undefined while loading). */
  useProjectChoices(): { projects: ConversationalProjectChoice[] | undefined; failed: boolean };
  /** One project (a non-empty id), and the save of its login (PUT /api/projects/{id}). */
  useProjectLogin(projectId: string): {
    project: ConversationalProjectDetails | undefined;
    failed: boolean;
    saveLogin: (steps: string[]) => Promise<void>;
    saving: boolean;
  };
  /** A project's page (its Variables and secrets). */
  projectHref(projectId: string): string;
  /** The page that creates a web project. */
  newProjectHref: string;
}
