/**
 * The server process of bench/organizations.bench.ts, which spawns it with `node --import tsx`, its
 * environment and an IPC channel: apps/server/src/testing/org-lookup-server.ts (the whole app, each
 * request with the membership lookup or without it as the bench's header asks). Not a test, not a
 * production entry.
 */
import { startOrgLookupServer } from '../apps/server/src/testing/org-lookup-server';

await startOrgLookupServer();
