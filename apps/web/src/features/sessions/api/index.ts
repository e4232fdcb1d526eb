import type { SessionsApi } from '../model/session-store';
import { createSession } from './create-session';
import { deleteSession } from './delete-session';
import { getSession } from './get-session';
import { listAllSessions } from './list-sessions';
import { updateSession } from './update-session';

/** The real server calls, as the session store wants them. */
export const httpSessionsApi: SessionsApi = {
  list: () => listAllSessions(),
  get: (id) => getSession(id),
  create: createSession,
  update: updateSession,
  remove: deleteSession,
};
