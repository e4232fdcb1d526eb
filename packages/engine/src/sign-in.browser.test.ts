import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestCaseSchema } from '@argus/protocol';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from './browser-pool';
import { SignedInSessions, SignInError, type SignInPlan } from './sign-in';
import { TargetPolicy } from './target-policy';
import { runTestCase } from './test-runner';
import type { StepVariables } from './variables';

// A small app behind a sign-in, written for these tests: server-side sessions in a cookie, a password
// form, a second page asking a TOTP code for one account, and a page that echoes what is typed.
const PASSWORD = 'Tr0ub4dor&3-secret';
const TOTP_SECRET = new Secret({ size: 20 }).base32;
const ACCOUNTS: Record<string, { password: string; totp?: string }> = {
  'ada@example.test': { password: PASSWORD },
  'grace@example.test': { password: PASSWORD, totp: TOTP_SECRET },
};

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
const LOGIN_FORM = (error = '') =>
  page(
    'Sign in',
    `<h1>Sign in</h1>${error ? `<p role="alert">${error}</p>` : ''}<form method="post" action="/login">` +
      '<label>Email <input name="email" type="email"></label>' +
      '<label>Password <input name="password" type="password"></label><button>Sign in</button></form>',
  );

let server: Server;
let base: string;
const sessions = new Map<string, string>();
const pending = new Map<string, string>();
let changedLoginPage = false;

function cookie(header: string | undefined, name: string): string | undefined {
  return header
    ?.split(';')
    .map((part) => part.trim().split('='))
    .find(([key]) => key === name)?.[1];
}

async function body(req: import('node:http').IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, html: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(html);
    };
    const redirect = (to: string, headers: Record<string, string> = {}) => {
      res.writeHead(303, { location: to, ...headers });
      res.end();
    };
    if (url.pathname === '/login' && req.method === 'GET') {
      return send(
        200,
        changedLoginPage ? page('Sign in', '<h1>Use your company account</h1>') : LOGIN_FORM(),
      );
    }
    if (url.pathname === '/login' && req.method === 'POST') {
      const form = await body(req);
      const account = ACCOUNTS[form.get('email') ?? ''];
      if (!account || account.password !== form.get('password'))
        return send(401, LOGIN_FORM('Invalid email or password'));
      const id = randomBytes(12).toString('hex');
      if (account.totp) {
        pending.set(id, form.get('email') ?? '');
        return redirect('/login/2fa', { 'set-cookie': `pending=${id}; HttpOnly; Path=/` });
      }
      sessions.set(id, form.get('email') ?? '');
      return redirect('/home', { 'set-cookie': `sid=${id}; HttpOnly; Path=/` });
    }
    if (url.pathname === '/login/2fa') {
      const id = cookie(req.headers.cookie, 'pending') ?? '';
      const email = pending.get(id);
      if (!email) return redirect('/login');
      const codeForm = (error = '') =>
        page(
          'Two-factor',
          `${error ? `<p role="alert">${error}</p>` : ''}<form method="post">` +
            '<label>Authentication code <input name="code" autocomplete="one-time-code" inputmode="numeric"></label>' +
            '<button>Verify</button></form>',
        );
      if (req.method === 'GET') return send(200, codeForm());
      const code = (await body(req)).get('code') ?? '';
      const ok = new TOTP({ secret: ACCOUNTS[email].totp }).validate({ token: code, window: 1 }) !== null;
      if (!ok) return send(401, codeForm('Wrong code'));
      pending.delete(id);
      sessions.set(id, email);
      return redirect('/home', { 'set-cookie': `sid=${id}; HttpOnly; Path=/` });
    }
    const who = sessions.get(cookie(req.headers.cookie, 'sid') ?? '');
    // /desk shows the sign-in form where it was asked for, as single-page apps do, instead of redirecting.
    if (!who && url.pathname === '/desk') return send(200, LOGIN_FORM());
    if (!who) return redirect(`/login?next=${encodeURIComponent(url.pathname)}`);
    if (url.pathname === '/desk') return send(200, page('Desk', `<h1>Desk of ${who}</h1>`));
    if (url.pathname === '/settings') {
      // A password form that is not the sign-in form.
      return send(
        200,
        page(
          'Settings',
          '<h1>Change your password</h1><form method="post">' +
            '<label>Current password <input name="current" type="password"></label>' +
            '<label>New password <input name="password" type="password"></label>' +
            '<button>Change password</button></form>',
        ),
      );
    }
    if (url.pathname === '/home') {
      const note = url.searchParams.get('note');
      return send(
        200,
        page(
          'Home',
          `<h1>Hello ${who}</h1><form><label>Note <input name="note"></label><button>Save note</button></form>` +
            (note === null ? '' : `<p>Saved: ${note.replace(/[<&]/g, '')}</p>`),
        ),
      );
    }
    return send(404, page('Not found', '<h1>Not found</h1>'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
afterAll(async () => {
  await pool.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const variables = (email: string): StepVariables => ({
  source: 'environment "staging" of project "Shop"',
  values: new Map<string, { value: string; secret: boolean }>([
    ['EMAIL', { value: email, secret: false }],
    ['PASSWORD', { value: PASSWORD, secret: true }],
    ['TOTP', { value: TOTP_SECRET, secret: true }],
  ]),
});
const credentials: SignInPlan = {
  mode: 'credentials',
  loginUrl: '/login',
  username: 'EMAIL',
  password: 'PASSWORD',
  totp: 'TOTP',
};
/** The same sign-in, recorded as step-language lines. */
const recorded: SignInPlan = {
  mode: 'steps',
  steps: [
    'Navigate to /login',
    'Fill "Email" with "{{EMAIL}}"',
    'Fill "Password" with "{{PASSWORD}}"',
    'Click button "Sign in"',
  ],
};
const testCase = (steps: string[]) => TestCaseSchema.parse({ test_name: 'signed in', steps });

describe('signing in before a run', () => {
  it('fills the sign-in form as a person would, and every session of the run starts signed in', async () => {
    const signedIn = new SignedInSessions(pool, credentials, {
      baseUrl: base,
      variables: variables('ada@example.test'),
    });
    await signedIn.start();
    const outcome = await runTestCase(
      signedIn,
      testCase(['Navigate to /home', 'Verify heading "Hello ada@example.test" is visible']),
      {
        baseUrl: base,
      },
    );
    expect(outcome.error).toBeNull();
  });

  it("opens every session at the project's viewport, a generation's exploring ones included", async () => {
    const signedIn = new SignedInSessions(pool, credentials, {
      baseUrl: base,
      variables: variables('ada@example.test'),
      viewport: { width: 390, height: 844 },
    });
    await signedIn.start();
    // As the explorer opens one: no viewport of its own.
    const session = await signedIn.openSession({});
    try {
      await session.navigate(`${base}/home`);
      expect(session.viewport).toEqual({ width: 390, height: 844 });
      expect(await session.evaluate(() => window.innerWidth, undefined)).toBe(390);
    } finally {
      await session.close();
    }
    // A session that asks for its own viewport keeps it.
    const wide = await signedIn.openSession({ viewport: { width: 1280, height: 800 } });
    try {
      expect(wide.viewport).toEqual({ width: 1280, height: 800 });
    } finally {
      await wide.close();
    }
  });

  it('answers the two-factor page with a code made from the TOTP secret', async () => {
    const signedIn = new SignedInSessions(pool, credentials, {
      baseUrl: base,
      variables: variables('grace@example.test'),
    });
    await signedIn.start();
    const outcome = await runTestCase(
      signedIn,
      testCase(['Navigate to /home', 'Verify text "Hello grace" is visible']),
      {
        baseUrl: base,
      },
    );
    expect(outcome.error).toBeNull();
  });

  it('fails at once with what the page said for a wrong password, with a screenshot and no secret in the message', async () => {
    const wrong = variables('ada@example.test');
    (wrong.values as Map<string, { value: string; secret: boolean }>).set('PASSWORD', {
      value: 'not-the-password',
      secret: true,
    });
    const signedIn = new SignedInSessions(pool, credentials, { baseUrl: base, variables: wrong });
    const error = await signedIn.start().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SignInError);
    expect((error as SignInError).message).toBe(
      'still on the sign-in page after submitting the username and password: the page says "Invalid email or password"',
    );
    expect((error as SignInError).screenshot?.data.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('says the sign-in page changed when it has no password field any more', async () => {
    changedLoginPage = true;
    try {
      const signedIn = new SignedInSessions(pool, credentials, {
        baseUrl: base,
        variables: variables('ada@example.test'),
      });
      await expect(signedIn.start()).rejects.toThrow(
        `no sign-in form on ${base}/login: no password field was found (has the sign-in page changed?)`,
      );
    } finally {
      changedLoginPage = false;
    }
  });

  it('performs a recorded login of step-language lines with {{NAME}} values', async () => {
    const signedIn = new SignedInSessions(pool, recorded, {
      baseUrl: base,
      variables: variables('ada@example.test'),
    });
    await signedIn.start();
    const outcome = await runTestCase(
      signedIn,
      testCase(['Navigate to /home', 'Verify text "Hello ada" is visible']),
      {
        baseUrl: base,
      },
    );
    expect(outcome.error).toBeNull();
  });

  it('signs a test in again once when its session expired, and says so in the log', async () => {
    const vars = variables('ada@example.test');
    const signedIn = new SignedInSessions(pool, credentials, { baseUrl: base, variables: vars });
    await signedIn.start();
    sessions.clear();
    const outcome = await runTestCase(
      signedIn,
      testCase(['Navigate to /home', 'Verify text "Hello ada" is visible']),
      {
        baseUrl: base,
        variables: vars,
        renewal: signedIn.renewal,
      },
    );
    expect(outcome.error).toBeNull();
    expect(outcome.logs.map((l) => l.message)).toContain(
      'Session expired during step 1; signed in again and redid it (GET /home was sent to the sign-in page)',
    );
    // The next test starts from the new sign-in.
    const next = await runTestCase(
      signedIn,
      testCase(['Navigate to /home', 'Verify text "Hello ada" is visible']),
      {
        baseUrl: base,
        renewal: signedIn.renewal,
      },
    );
    expect(next.logs.some((l) => l.message.includes('signed in again'))).toBe(false);
    expect(next.error).toBeNull();
  });
});

describe('signed out without a redirect', () => {
  it.each([
    ['a username and password', credentials],
    ['a recorded login', recorded],
  ])(
    'signs in again when the app shows the sign-in form at the address asked for, and not for another password form (%s)',
    async (_kind, plan) => {
      const vars = variables('ada@example.test');
      const signedIn = new SignedInSessions(pool, plan, { baseUrl: base, variables: vars });
      await signedIn.start();
      const run = (steps: string[]) =>
        runTestCase(signedIn, testCase(steps), { baseUrl: base, variables: vars, renewal: signedIn.renewal });
      const renewedIn = (logs: { message: string }[]) =>
        logs.some((l) => l.message.includes('signed in again'));

      // A page with a password form of its own is not the sign-in page.
      const settings = await run([
        'Navigate to /settings',
        'Verify heading "Change your password" is visible',
      ]);
      expect(settings.error).toBeNull();
      expect(renewedIn(settings.logs)).toBe(false);

      sessions.clear();
      const desk = await run(['Navigate to /desk', 'Verify heading "Desk of ada@example.test" is visible']);
      expect(desk.error).toBeNull();
      expect(desk.logs.map((l) => l.message)).toContain(
        'Session expired during step 1; signed in again and redid it (the app showed its sign-in page)',
      );
      // Signed in again, the next test finds no form.
      const next = await run(['Navigate to /desk', 'Verify heading "Desk of ada@example.test" is visible']);
      expect(next.error).toBeNull();
      expect(renewedIn(next.logs)).toBe(false);
    },
  );
});

describe('variables and secrets in steps', () => {
  it('types a secret where the step says {{PASSWORD}} and never reports its value', async () => {
    const vars = variables('ada@example.test');
    const signedIn = new SignedInSessions(pool, credentials, { baseUrl: base, variables: vars });
    await signedIn.start();
    const outcome = await runTestCase(
      signedIn,
      testCase([
        'Navigate to /home',
        'Fill "Note" with "{{PASSWORD}}"',
        'Click button "Save note"',
        'Verify text "no such text" is visible',
      ]),
      { baseUrl: base, variables: vars, stepTimeoutMs: 1_000 },
    );
    // The page echoes the secret (in its text and its URL); the failure quotes the page, hidden again.
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBe(
      `Expected the text "no such text" to be visible on ${base}/home?note={{PASSWORD}}`,
    );
    const everything = JSON.stringify({ ...outcome, screenshots: [] });
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain(encodeURIComponent(PASSWORD));
    expect(outcome.steps[1].value).toBe('{{PASSWORD}}');
    expect(outcome.steps[1].description).toBe('Fill "Note" with "{{PASSWORD}}"');
  });

  it('draws a text field holding a secret as discs, as a password field is drawn', async () => {
    const vars = variables('ada@example.test');
    const session = await pool.openSession({ baseUrl: base, variables: vars });
    try {
      await session.navigate('/login');
      await session.perform({ verb: 'fill', field: 'Email', value: '{{EMAIL}}' });
      await session.perform({ verb: 'fill', field: 'Password', value: '{{PASSWORD}}' });
      const security = () =>
        session.evaluate(
          () =>
            [...document.querySelectorAll('input')].map((i) =>
              i.style.getPropertyValue('-webkit-text-security'),
            ),
          null,
        );
      // A plain variable stays readable; nothing to mask in a password field.
      expect(await security()).toEqual(['', '']);
      await session.perform({ verb: 'fill', field: 'Email', value: '{{PASSWORD}}' });
      expect(await security()).toEqual(['disc', '']);
    } finally {
      await session.close();
    }
  });

  it('fails a step naming the variable and the environment when it has no value', async () => {
    const outcome = await runTestCase(
      pool,
      testCase([`Navigate to ${base}/login`, 'Fill "Email" with "{{API_USER}}"']),
      {
        baseUrl: base,
        variables: variables('ada@example.test'),
      },
    );
    expect(outcome.error).toBe(
      `No value for {{API_USER}} in environment "staging" of project "Shop": add it under the project's Variables and secrets`,
    );
  });

  it('fails a {{NAME}} step of a run that is on no project environment', async () => {
    const outcome = await runTestCase(
      pool,
      testCase([`Navigate to ${base}/login`, 'Fill "Email" with "{{EMAIL}}"']),
      {
        baseUrl: base,
      },
    );
    expect(outcome.error).toBe(
      '{{EMAIL}} is a project variable, and this run is not on a project environment to take it from',
    );
  });
});
