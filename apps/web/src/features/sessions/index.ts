export { createSession, useCreateSessionMutation } from './api/create-session';
export { deleteSession, useDeleteSessionMutation } from './api/delete-session';
export { getSession, useSessionQuery } from './api/get-session';
export { sessionKeys } from './api/keys';
export { listSessions, useSessionsQuery } from './api/list-sessions';
export { updateSession, useUpdateSessionMutation } from './api/update-session';
export { countActiveSessions } from './model/counters';
export { isLocalOnlyId, LOCAL_ID_PREFIX, LOCAL_TITLE_SUFFIX } from './model/local-only';
export { toClientSession, toClientStatus, toServerStatus } from './model/mapping';
export { SESSION_ERRORS, type SessionsApi, type SessionsSnapshot } from './model/session-store';
export type {
  ClientSession,
  NewSession,
  SessionCounters,
  SessionMetadata,
  SessionPatch,
} from './model/types';
export { type SessionsContextValue, SessionsProvider, useSessions } from './sessions-context';
