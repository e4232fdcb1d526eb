import type { Repositories, TestRunRow } from '@argus/db';
import { isLocalSessionId } from '@argus/protocol';
import { AppError } from '../errors';

/**
 * A message or body naming a session or a test run is checked against its sender before anything is
 * written: another user's record answers exactly as a missing one does (404 SESSION_NOT_FOUND /
 * TEST_RUN_NOT_FOUND over HTTP, an `error` message with that code on the socket), so nothing is ever
 * recorded against it and nothing tells whether it exists.
 */

/**
 * Refuses a `session_id` that is not one of the user's sessions. None (null, absent, empty) is fine,
 * and so is a browser-only `local_…` id (docs/PRODUCT.md#sessions), which can name no server session.
 */
export async function checkSessionOwner(
  repos: Repositories,
  userId: string,
  sessionId: string | null | undefined,
): Promise<void> {
  if (!sessionId || isLocalSessionId(sessionId)) return;
  if (!(await repos.sessions.get(userId, sessionId))) throw new AppError('SESSION_NOT_FOUND');
}

/** The user's test run `id`, or 404 TEST_RUN_NOT_FOUND. */
export async function ownTestRun(repos: Repositories, userId: string, id: string): Promise<TestRunRow> {
  const run = await repos.testRuns.get(userId, id);
  if (!run) throw new AppError('TEST_RUN_NOT_FOUND');
  return run;
}
