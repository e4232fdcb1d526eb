import type { ClientSessionStatus, JsonObject, SessionType } from '@argus/protocol';

/** What a screen keeps about a session beyond the server's fields (docs/PRODUCT.md#sessions). */
export interface SessionMetadata {
  testCases?: unknown[];
  executionResults?: unknown[];
  screenshots?: unknown[];
  logs?: unknown[];
  [key: string]: unknown;
}

/**
 * A session as screens see it (docs/PRODUCT.md#sessions, in the browser): camelCase dates, lowercase status, and a
 * flag for sessions that exist only in this browser because the server could not create them.
 */
export interface ClientSession {
  id: string;
  type: SessionType;
  title: string;
  /** Conversational and design sessions: 'Video Chat Session' or 'Figma Design Comparison'. */
  name?: string;
  url: string | null;
  status: ClientSessionStatus;
  createdAt: string;
  updatedAt: string;
  userId: string;
  description: string | null;
  settings: JsonObject;
  isLocalOnly: boolean;
  metadata: SessionMetadata;
}

/** What a screen gives to create a session. */
export interface NewSession {
  type: SessionType;
  title: string;
  name?: string;
  url?: string | null;
  description?: string | null;
  settings?: JsonObject;
  metadata?: SessionMetadata;
}

/** The fields a screen may change. */
export type SessionPatch = Partial<
  Pick<ClientSession, 'title' | 'name' | 'url' | 'description' | 'status' | 'settings' | 'metadata'>
>;

/** docs/PRODUCT.md#sessions: counters of active sessions. */
export interface SessionCounters {
  conversational: number;
  automation: number;
  total: number;
}
