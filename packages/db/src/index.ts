export {
  type Database,
  type DatabaseKind,
  type DatabaseOptions,
  migrate,
  openDatabase,
  redactUrl,
} from './database';
export { type DemoRequestsRepository, demoRequestsRepository } from './demo-requests';
export { DatabaseInUseError } from './dir-lock';
export type { DemoRequestRow, ScreenshotRow, SessionRow, TestResultRow, TestRunRow, UserRow } from './schema';
export { type NewSession, type SessionFilter, type SessionsRepository, sessionsRepository } from './sessions';
export {
  type NewScreenshot,
  type NewTestResult,
  type NewTestRun,
  type TestRunPatch,
  type TestRunsRepository,
  testRunsRepository,
} from './test-runs';
export { createScratchDatabase } from './testing';
export { isUuid, type NewUser, UniqueViolation, type UsersRepository, usersRepository } from './users';

import type { Database } from './database';
import { demoRequestsRepository } from './demo-requests';
import { sessionsRepository } from './sessions';
import { testRunsRepository } from './test-runs';
import { usersRepository } from './users';

/** Every repository over one open database. */
export function repositories(db: Database) {
  return {
    users: usersRepository(db.orm),
    sessions: sessionsRepository(db.orm),
    demoRequests: demoRequestsRepository(db.orm),
    testRuns: testRunsRepository(db.orm),
  };
}
export type Repositories = ReturnType<typeof repositories>;
