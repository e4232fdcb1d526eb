import { AsyncLocalStorage } from 'node:async_hooks';
import { join } from 'node:path';
import { type OrganizationRow, openDatabase } from '@argus/db';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { checkRole } from '../orgs/org-access';
import type { OrgContext } from '../orgs/org-context';

/**
 * The server of bench/organizations.bench.ts (docs/PERFORMANCE.md#organizations-the-permission-check-at-1000--20),
 * not a production entry: the whole app (`buildApp`, as server.ts builds it) in the process that calls
 * `startOrgLookupServer` (bench/organizations-server.ts, spawned by the bench with its environment
 * and an IPC channel). Each request says how its organization is resolved, in the bench's header
 * `X-Bench-Lookup`:
 *
 * - `production`: as in production (`auth.memberFromToken`: the user and the membership in one read),
 *   the time that call takes kept for the bench;
 * - `skipped`: the user alone is read (`auth.userFromToken`, as before organizations) and the
 *   membership comes from a map of every membership read once at start: the same request without the
 *   check's database work.
 *
 * The bench mixes the two at random in one stream of requests, so both meet the same load. The switch
 * is made here, in the bench's process only, by replacing the auth service's method on the built
 * app: the server's own code has no bypass. `checkRole` runs either way (authenticate.ts imports it by name);
 * it is timed apart at start.
 */

/** The bench's header, naming how the request's organization is resolved. */
export const LOOKUP_HEADER = 'x-bench-lookup';
export type Lookup = 'production' | 'skipped';
/** From the bench. */
export type ToServer = { type: 'times' } | { type: 'stop' };
/**
 * To the bench: the ready server (its URL, the memberships in its map, `checkRole`'s own time), and
 * since the last `times`, the lookups' own times (ms), how many requests skipped it, and how many
 * asked to but were not in the map (each then looked up).
 */
export type FromServer =
  | { type: 'ready'; url: string; memberships: number; checkRoleNs: number }
  | { type: 'times'; lookups: number[]; skipped: number; misses: number };

/** checkRole's own time, nanoseconds a call: it runs either way, so the comparison leaves it out. */
function checkRoleNs(): number {
  const org: OrgContext = { id: 'org', name: 'An organization', role: 'viewer', personal: false };
  const calls = 1_000_000;
  for (let i = 0; i < calls / 10; i++) checkRole(org, 'read');
  const started = performance.now();
  for (let i = 0; i < calls; i++) checkRole(org, 'read');
  return ((performance.now() - started) * 1e6) / calls;
}

export async function startOrgLookupServer(): Promise<void> {
  const send = process.send?.bind(process);
  if (!send)
    throw new Error('The bench starts this server with an IPC channel (bench/organizations.bench.ts)');
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: join(config.dataDir, 'db') });

  // Every membership as the check would read it: the skipped lookups' answers.
  const known = new Map<string, OrgContext>();
  const rows = (await db.orm.execute(
    'SELECT m.org_id, m.user_id, m.role, o.name, o.personal FROM memberships m JOIN organizations o ON o.id = m.org_id',
  )) as unknown as {
    rows: { org_id: string; user_id: string; role: string; name: string; personal: boolean }[];
  };
  for (const row of rows.rows)
    known.set(`${row.org_id}/${row.user_id}`, {
      id: row.org_id,
      name: row.name,
      role: row.role as OrgContext['role'],
      personal: row.personal,
    });

  // The request's choice, from the app's first preHandler hook (below) to the route's own, which runs
  // the check. Not an onRequest hook: plugins/statement-scope.ts puts each request back into the
  // context its own onRequest hook made, which a later hook's would not be part of.
  const choices = new AsyncLocalStorage<Lookup>();
  let lookups: number[] = [];
  let skipped = 0;
  let misses = 0;
  const app = await buildApp({ config, db });
  // Every signed-in request reads its user and membership in one statement (auth.memberFromToken).
  // Skipped: the user alone (as before organizations) and the membership from the map.
  const auth = app.services.auth;
  const memberFromToken = auth.memberFromToken;
  auth.memberFromToken = async (token, orgId) => {
    const lookup = choices.getStore();
    if (lookup === 'skipped') {
      const user = await auth.userFromToken(token);
      const context = known.get(`${orgId ?? user.id}/${user.id}`);
      if (context) {
        skipped++;
        const org = { id: context.id, name: context.name, personal: context.personal } as OrganizationRow;
        return { user, membership: { org, role: context.role } };
      }
      misses++;
    }
    const started = performance.now();
    const found = await memberFromToken.call(auth, token, orgId);
    if (lookup === 'production') lookups.push(performance.now() - started);
    return found;
  };
  app.addHook('preHandler', (request, _reply, done) => {
    const header = request.headers[LOOKUP_HEADER];
    if (header === 'production' || header === 'skipped') choices.run(header, done);
    else done();
  });
  await app.listen({ port: config.port, host: config.host });

  const stop = async () => {
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('message', (message: ToServer) => {
    if (message.type !== 'times') return void stop();
    send({ type: 'times', lookups, skipped, misses } satisfies FromServer);
    lookups = [];
    skipped = 0;
    misses = 0;
  });
  process.on('SIGTERM', () => void stop());
  send({
    type: 'ready',
    url: `http://${config.host}:${config.port}`,
    memberships: known.size,
    checkRoleNs: checkRoleNs(),
  } satisfies FromServer);
}
