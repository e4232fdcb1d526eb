import type { ClientMessageInput, JsonObject, ServerMessage, User } from '@argus/protocol';
import type { StoredSession } from './model/restore';

/**
 * What the screen needs from the realtime socket. The app passes its realtime context value
 * (features do not import each other); only these members are used.
 */
export interface AutomationRealtime {
  status: 'disconnected' | 'connecting' | 'connected' | 'error';
  isConnected: boolean;
  /** Throws while disconnected or when the message does not match the protocol. */
  send: (message: ClientMessageInput) => void;
  client: { onMessage(listener: (message: ServerMessage) => void): () => void };
}

/** What the screen stores with its session (spec §3; the store drops screenshots, keeps 10 logs). */
export interface AutomationSessionMetadata {
  testCases?: unknown[];
  executionResults?: unknown[];
  screenshots?: unknown[];
  logs?: unknown[];
  [key: string]: unknown;
}

export interface AutomationSessionInput {
  type: 'automation';
  title: string;
  url?: string | null;
  description?: string | null;
  settings?: JsonObject;
  metadata?: AutomationSessionMetadata;
}

export interface AutomationSessionPatch {
  title?: string;
  url?: string | null;
  settings?: JsonObject;
  metadata?: AutomationSessionMetadata;
}

/** What the screen needs from the sessions store (the app passes its sessions context value). */
export interface AutomationSessions {
  /** The user's sessions; the last automation session's cases are shown again on opening. */
  sessions: readonly StoredSession[];
  createSession(input: AutomationSessionInput): Promise<{ id: string; settings: JsonObject }>;
  updateSession(id: string, patch: AutomationSessionPatch): Promise<unknown>;
}

export interface AutomationScreenProps {
  /** The signed-in user, or null (then the screen asks to log in). */
  user: User | null;
  realtime: AutomationRealtime;
  sessions: AutomationSessions;
}
