export type { ClientSession, NewSession, SessionPatch } from './model/types';
export { type SessionsContextValue, SessionsProvider, useSessions } from './sessions-context';
