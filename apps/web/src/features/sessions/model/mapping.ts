import type {
  ClientSessionStatus,
  JsonObject,
  Session,
  SessionCreate,
  SessionStatus,
  SessionUpdate,
} from '@argus/protocol';
import { sanitizeMetadata } from './sanitize';
import type { ClientSession, NewSession, SessionMetadata } from './types';

/** The server stores status in upper case, the client in lower case (docs/PRODUCT.md#sessions). */
export function toClientStatus(status: SessionStatus): ClientSessionStatus {
  return status.toLowerCase() as ClientSessionStatus;
}

export function toServerStatus(status: ClientSessionStatus): SessionStatus {
  return status.toUpperCase() as SessionStatus;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Server settings carry the client's metadata and name next to the screen's own settings
 * (docs/PRODUCT.md#sessions: settings hold testCases and metadata).
 */
export function toClientSession(session: Session): ClientSession {
  const { metadata, name, ...settings } = session.settings;
  const meta: SessionMetadata = isObject(metadata) ? { ...metadata } : {};
  if (meta.testCases === undefined && Array.isArray(settings.testCases)) meta.testCases = settings.testCases;
  return {
    id: session.id,
    type: session.session_type,
    title: session.title,
    ...(typeof name === 'string' ? { name } : {}),
    url: session.url,
    status: toClientStatus(session.status),
    createdAt: session.created_at,
    updatedAt: session.updated_at,
    userId: session.user_id,
    description: session.description,
    settings,
    isLocalOnly: false,
    metadata: meta,
  };
}

function serverSettings(
  settings: JsonObject | undefined,
  name: string | undefined,
  metadata: SessionMetadata | undefined,
): JsonObject {
  const out: JsonObject = { ...(settings ?? {}) };
  if (name !== undefined) out.name = name;
  const clean = sanitizeMetadata(metadata);
  if (Object.keys(clean).length > 0) out.metadata = clean;
  return out;
}

export function toServerCreate(input: NewSession): SessionCreate {
  return {
    title: input.title,
    session_type: input.type,
    description: input.description ?? null,
    url: input.url ?? null,
    settings: serverSettings(input.settings, input.name, input.metadata),
  };
}

/** The whole updated session as a PUT body (the server replaces what it is given). */
export function toServerUpdate(session: ClientSession): SessionUpdate {
  return {
    title: session.title,
    session_type: session.type,
    description: session.description,
    url: session.url,
    status: toServerStatus(session.status),
    settings: serverSettings(session.settings, session.name, session.metadata),
  };
}
