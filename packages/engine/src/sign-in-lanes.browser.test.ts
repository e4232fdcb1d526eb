import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestCase } from '@argus/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BrowserPool, type SessionOpener } from './browser-pool';
import { SignedInSessions, type SignInPlan } from './sign-in';
import { type LaneSignIn, SignInLanes } from './sign-in-lanes';
import { TargetPolicy } from './target-policy';
import { runTestCase, type SessionRenewal } from './test-runner';
import type { StepVariables } from './variables';

// A small app of the kind most frameworks make, written for these tests: server-side sessions, and a
// flash message kept in the session by a form post and shown (and consumed) by the next page the
// session renders. Every sign-in is counted per account, every add per session.
const ACCOUNTS: Record<string, string> = {
  'ada@example.test': 'pw-ada-1',
  'bob@example.test': 'pw-bob-2',
  'cy@example.test': 'pw-cy-3',
};
interface Session {
  email: string;
  flash: string | null;
}
const sessions = new Map<string, Session>();
const items = new Map<string, string[]>();
const signIns: string[] = [];
const addsBySession = new Map<string, number>();
let server: Server;
let base: string;

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Notes</title></head><body>${body}</body></html>`;

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (html: string, status = 200) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    };
    const redirect = (to: string, cookie?: string) => {
      res.writeHead(303, { location: to, ...(cookie ? { 'set-cookie': cookie } : {}) });
      res.end();
    };
    const loginForm = (error = '') =>
      page(
        `${error ? `<p role="alert">${error}</p>` : ''}<form method="post" action="/login">` +
          '<label>Email <input name="email" type="email"></label>' +
          '<label>Password <input name="password" type="password"></label><button>Sign in</button></form>',
      );
    if (url.pathname === '/login' && req.method === 'GET') return send(loginForm());
    if (url.pathname === '/login' && req.method === 'POST') {
      const body = await form(req);
      const email = body.get('email') ?? '';
      if (ACCOUNTS[email] !== body.get('password')) return send(loginForm('Wrong password'), 401);
      const id = randomBytes(12).toString('hex');
      sessions.set(id, { email, flash: null });
      signIns.push(email);
      return redirect('/', `sid=${id}; HttpOnly; Path=/`);
    }
    const sid = /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '';
    const session = sessions.get(sid);
    if (!session) return redirect('/login');
    if (url.pathname === '/add' && req.method === 'POST') {
      const name = (await form(req)).get('name') ?? '';
      // A little server work: posts of cases run at once overlap, as they do on a real app.
      await new Promise((resolve) => setTimeout(resolve, 150));
      items.set(session.email, [...(items.get(session.email) ?? []), name]);
      addsBySession.set(sid, (addsBySession.get(sid) ?? 0) + 1);
      session.flash = `Added ${name}.`;
      return redirect('/');
    }
    const flash = session.flash;
    session.flash = null;
    const list = (items.get(session.email) ?? []).map((i) => `<li>${i}</li>`).join('');
    return send(
      page(
        `${flash ? `<p role="status">${flash}</p>` : ''}<h1>Notes of ${session.email}</h1><ul>${list}</ul>` +
          '<form method="post" action="/add"><label>Note <input name="name"></label><button>Add note</button></form>',
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 4 });
afterAll(async () => {
  await pool.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  signIns.length = 0;
  addsBySession.clear();
});

const plan: SignInPlan = { mode: 'credentials', loginUrl: '/login', username: 'EMAIL', password: 'PASSWORD' };
function variables(entries: Record<string, string>): StepVariables {
  return {
    source: 'environment "test"',
    values: new Map(
      Object.entries(entries).map(([k, v]) => [k, { value: v, secret: k.startsWith('PASSWORD') }]),
    ),
  };
}
const ONE_ACCOUNT = variables({ EMAIL: 'ada@example.test', PASSWORD: ACCOUNTS['ada@example.test'] });
const TWO_ACCOUNTS = variables({
  EMAIL: 'ada@example.test',
  PASSWORD: ACCOUNTS['ada@example.test'],
  EMAIL_1: 'bob@example.test',
  PASSWORD_1: ACCOUNTS['bob@example.test'],
  EMAIL_2: 'cy@example.test',
  PASSWORD_2: ACCOUNTS['cy@example.test'],
});

/** A case that adds a note and reads the flash message its post left in the session. */
const addAndReadFlash = (n: number): TestCase => ({
  test_name: `Adding note ${n} says so`,
  category: 'functional',
  description: '',
  steps: [
    `Navigate to "${'/'}"`,
    `Fill "Note" with "Note ${n} {{RUN_ID}}"`,
    'Click "Add note"',
    `Verify text "Added Note ${n} {{RUN_ID}}." is visible`,
  ],
  expected_result: 'The flash message names the note',
  priority: 'high',
});

/** The cases run `parallelism` at a time, as a run's lanes take them; how many failed. */
async function runAtOnce(
  opener: SessionOpener,
  renewal: SessionRenewal | undefined,
  cases: TestCase[],
  parallelism: number,
): Promise<number> {
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: parallelism }, async () => {
      while (next < cases.length) {
        const outcome = await runTestCase(opener, cases[next++], {
          baseUrl: `${base}/`,
          screenshots: false,
          stepTimeoutMs: 1_500,
          renewal,
        });
        if (outcome.status === 'failed') failed++;
        if (outcome.status === 'failed' && process.env.DEBUG_LANES) console.log(outcome.error);
      }
    }),
  );
  return failed;
}

/**
 * The long version runs in CI's endurance project (ARGUS_ENDURANCE=1, docs/TESTING.md): the old way
 * failing within 10 runs, and 20 runs with a session per lane; `npm test` runs 3 of the latter.
 */
const ENDURANCE = process.env.ARGUS_ENDURANCE === '1';

describe.skipIf(!ENDURANCE)('endurance: cases run at once from one shared sign-in (the old way)', () => {
  it('read each other’s flash messages: two cases at parallelism 2 fail within 10 runs', async () => {
    const shared = new SignedInSessions(pool, plan, { baseUrl: base, variables: ONE_ACCOUNT });
    await shared.start();
    let runs = 0;
    let failures = 0;
    while (runs < 10 && failures === 0) {
      runs++;
      failures += await runAtOnce(shared, shared.renewal, [addAndReadFlash(1), addAndReadFlash(2)], 2);
    }
    expect(failures, `failures over ${runs} runs`).toBeGreaterThan(0);
  });
});

describe('endurance: SignInLanes, a session of its own per lane', () => {
  const RUNS = ENDURANCE ? 20 : 3;
  it(`runs the same two cases at parallelism 2 with no failure in ${RUNS} runs, signing in once per lane`, async () => {
    const said: LaneSignIn[] = [];
    const lanes = new SignInLanes(pool, plan, {
      baseUrl: base,
      variables: ONE_ACCOUNT,
      onSignedIn: (s) => said.push(s),
    });
    await lanes.start();
    let failures = 0;
    for (let run = 0; run < RUNS; run++)
      failures += await runAtOnce(lanes, lanes.renewal, [addAndReadFlash(1), addAndReadFlash(2)], 2);
    expect(failures).toBe(0);
    // One sign-in per lane for all the cases, each on a session of its own (the account is shared).
    expect(signIns).toEqual(['ada@example.test', 'ada@example.test']);
    expect([...addsBySession.values()].sort()).toEqual([RUNS, RUNS]);
    expect(said.map((s) => [s.lane, s.account])).toEqual([
      [1, null],
      [2, null],
    ]);
  });

  it('gives each lane an account of its own from the numbered pool, and steps read the lane’s account', async () => {
    const lanes = new SignInLanes(pool, plan, { baseUrl: base, variables: TWO_ACCOUNTS });
    expect(lanes.accounts.map((a) => a.number)).toEqual([1, 2]);
    await lanes.start();
    const whoAmI: TestCase = {
      ...addAndReadFlash(3),
      steps: ['Navigate to "/"', 'Verify text "Notes of {{EMAIL}}" is visible'],
    };
    const failures = await runAtOnce(lanes, lanes.renewal, [whoAmI, whoAmI, whoAmI, whoAmI], 2);
    expect(failures).toBe(0);
    expect(signIns.sort()).toEqual(['bob@example.test', 'cy@example.test']);
  });

  it('runs cases in the lanes that signed in when a later lane cannot, and says which', async () => {
    const failedLanes: number[] = [];
    const broken = variables({
      EMAIL_1: 'bob@example.test',
      PASSWORD_1: ACCOUNTS['bob@example.test'],
      EMAIL_2: 'cy@example.test',
      PASSWORD_2: 'not the password',
    });
    const lanes = new SignInLanes(pool, plan, {
      baseUrl: base,
      variables: broken,
      onLaneFailed: (lane) => failedLanes.push(lane),
    });
    await lanes.start();
    const failures = await runAtOnce(lanes, lanes.renewal, [1, 2, 3].map(addAndReadFlash), 2);
    expect(failures).toBe(0);
    expect(failedLanes).toEqual([2]);
    expect(lanes.laneCount).toBe(1);
  });

  it('fails start() with the sign-in error when the first lane cannot sign in', async () => {
    const lanes = new SignInLanes(pool, plan, {
      baseUrl: base,
      variables: variables({ EMAIL: 'ada@example.test', PASSWORD: 'wrong' }),
    });
    await expect(lanes.start()).rejects.toThrow(/Wrong password|sign/i);
  });
});
