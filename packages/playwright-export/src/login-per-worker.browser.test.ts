/**
 * The exported project signs in once per Playwright worker (tests/support/auth.ts), never once for every
 * worker: run for real with `npx playwright test --workers=2` against a small site behind a sign-in
 * that gives each sign-in a session of its own and counts the sign-ins of each account.
 *
 *   npx vitest run --project browser packages/playwright-export/src/login-per-worker.browser.test.ts
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { findChromium } from '@argus/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExportSuite, exportPlaywright } from './export';
import { type PlaywrightVerdicts, runPlaywright, writeProject } from './testing/exported-project';

const ACCOUNTS: Record<string, string> = { 'ana@site.test': 'pass-ana', 'ben@site.test': 'pass-ben' };

/** A site behind a sign-in: a session (cookie `sid`) per sign-in, every signed-in page view recorded. */
interface SignInSite {
  url: string;
  /** Account → how many times it signed in. */
  signIns: Map<string, number>;
  /** Session id → the account it was made for, by a sign-in. */
  sessions: Map<string, string>;
  /** Each view of /whoami: the case that asked (its query) and the session it came with. */
  views: { case: string; sid: string }[];
  reset(): void;
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

const SIGN_IN_FORM = `<form method="post" action="/login">
  <label>Email <input name="email" type="email"></label>
  <label>Password <input name="password" type="password"></label>
  <button>Sign in</button>
</form>`;

async function serveSignInSite(): Promise<SignInSite> {
  const signIns = new Map<string, number>();
  const sessions = new Map<string, string>();
  const views: SignInSite['views'] = [];
  const send = (res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(html);
  };
  const sessionOf = (req: IncomingMessage) => /(?:^|;\s*)sid=([\w-]+)/.exec(req.headers.cookie ?? '')?.[1];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    if (url.pathname === '/login' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const email = form.get('email') ?? '';
        if (ACCOUNTS[email] === undefined || ACCOUNTS[email] !== form.get('password'))
          return send(
            res,
            200,
            page('Sign in', `<p role="alert">Wrong email or password</p>${SIGN_IN_FORM}`),
          );
        const sid = randomUUID();
        sessions.set(sid, email);
        signIns.set(email, (signIns.get(email) ?? 0) + 1);
        res.writeHead(303, { location: '/', 'set-cookie': `sid=${sid}; Path=/; HttpOnly; SameSite=Lax` });
        res.end();
      });
      return;
    }
    if (url.pathname === '/login') return send(res, 200, page('Sign in', SIGN_IN_FORM));
    const sid = sessionOf(req);
    const email = sid ? sessions.get(sid) : undefined;
    if (!sid || !email) {
      res.writeHead(303, { location: '/login' });
      return res.end();
    }
    if (url.pathname === '/whoami') views.push({ case: url.searchParams.get('case') ?? '', sid });
    return send(res, 200, page('Account', `<p>Signed in as ${email}</p>`));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    signIns,
    sessions,
    views,
    reset() {
      signIns.clear();
      sessions.clear();
      views.length = 0;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/**
 * Four cases, so both workers run some: each opens a page of its own and reads the account it is
 * signed in as, which must be its worker's (`{{EMAIL}}` reads the worker's account of a pool).
 */
const SUITE: ExportSuite = {
  name: 'Account',
  test_cases: [1, 2, 3, 4].map((n) => ({
    test_name: `Case ${n} sees its account`,
    steps: [`Navigate to /whoami?case=${n}`, 'Verify text "Signed in as {{EMAIL}}" is visible'],
  })),
};

/** What the site saw of one run: the sessions by the parallel index of the worker whose case used it. */
function sessionsByWorker(site: SignInSite, run: PlaywrightVerdicts): Map<number, Set<string>> {
  const byWorker = new Map<number, Set<string>>();
  for (const view of site.views) {
    const index = run.parallelIndex.get(`Case ${view.case} sees its account`);
    if (index === undefined) throw new Error(`no worker in the report for case ${view.case}`);
    byWorker.set(index, (byWorker.get(index) ?? new Set()).add(view.sid));
  }
  return byWorker;
}

describe('an exported project behind a login, under npx playwright test --workers=2', () => {
  let site: SignInSite;
  let dir: string;
  const env = () => ({ CHROMIUM_PATH: findChromium(), STEP_TIMEOUT_MS: '5000' });

  beforeAll(async () => {
    site = await serveSignInSite();
    const exported = exportPlaywright({
      project: 'Signed-in site',
      environment: { name: 'local', base_url: `${site.url}/` },
      login: {
        mode: 'credentials',
        login_url: '/login',
        username_variable: 'EMAIL',
        password_secret: 'PASSWORD',
      },
      variables: [
        { name: 'EMAIL', secret: false, value: 'ana@site.test' },
        { name: 'PASSWORD', secret: true },
      ],
      suites: [SUITE],
    });
    dir = await writeProject(exported.files);
  });
  afterAll(async () => {
    await site?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('signs in once per worker, each worker on a session of its own, and again on the next run', async () => {
    for (const run of [1, 2]) {
      site.reset();
      const result = await runPlaywright(dir, { ...env(), PASSWORD: ACCOUNTS['ana@site.test'] }, [
        '--workers=2',
      ]);
      expect(result.errors, `run ${run}`).toEqual([]);
      expect([...result.verdicts.values()], `run ${run}`).toEqual([true, true, true, true]);
      // Two workers, two sign-ins: not one shared by both, not one per test.
      expect(Object.fromEntries(site.signIns), `run ${run}`).toEqual({ 'ana@site.test': 2 });
      const byWorker = sessionsByWorker(site, result);
      expect([...byWorker.keys()].sort(), `run ${run}: both workers ran cases`).toEqual([0, 1]);
      // Every case of a worker came with that worker's one session, made by a sign-in of this run.
      const [first, second] = [0, 1].map((i) => [...(byWorker.get(i) ?? [])]);
      expect(first).toHaveLength(1);
      expect(second).toHaveLength(1);
      expect(first[0]).not.toBe(second[0]);
      for (const sid of [...first, ...second]) expect(site.sessions.has(sid)).toBe(true);
    }
  }, 300_000);

  it('signs each worker in with its own account of a pool of two, each account once', async () => {
    site.reset();
    const result = await runPlaywright(
      dir,
      {
        ...env(),
        EMAIL_1: 'ana@site.test',
        PASSWORD_1: ACCOUNTS['ana@site.test'],
        EMAIL_2: 'ben@site.test',
        PASSWORD_2: ACCOUNTS['ben@site.test'],
      },
      ['--workers=2'],
    );
    // Each case reads {{EMAIL}} as its worker's account: a case that saw another account fails.
    expect(result.errors).toEqual([]);
    expect([...result.verdicts.values()]).toEqual([true, true, true, true]);
    expect(Object.fromEntries(site.signIns)).toEqual({ 'ana@site.test': 1, 'ben@site.test': 1 });
    // Worker i signed in with account (i mod 2) + 1.
    const byWorker = sessionsByWorker(site, result);
    const accountOf = (index: number) =>
      [...(byWorker.get(index) ?? [])].map((sid) => site.sessions.get(sid));
    expect(accountOf(0)).toEqual(['ana@site.test']);
    expect(accountOf(1)).toEqual(['ben@site.test']);
  }, 300_000);

  it('runs a recorded login once per worker too, its lines as steps', async () => {
    const exported = exportPlaywright({
      project: 'Signed-in site',
      environment: { name: 'local', base_url: `${site.url}/` },
      login: {
        mode: 'steps',
        steps: [
          'Navigate to /login',
          'Fill "Email" with "{{EMAIL}}"',
          'Fill "Password" with "{{PASSWORD}}"',
          'Click "Sign in"',
          'Verify text "Signed in as {{EMAIL}}" is visible',
        ],
      },
      variables: [
        { name: 'EMAIL', secret: false, value: 'ben@site.test' },
        { name: 'PASSWORD', secret: true },
      ],
      suites: [SUITE],
    });
    const recorded = await writeProject(exported.files);
    try {
      site.reset();
      const result = await runPlaywright(recorded, { ...env(), PASSWORD: ACCOUNTS['ben@site.test'] }, [
        '--workers=2',
      ]);
      expect(result.errors).toEqual([]);
      expect([...result.verdicts.values()]).toEqual([true, true, true, true]);
      expect(Object.fromEntries(site.signIns)).toEqual({ 'ben@site.test': 2 });
      const byWorker = sessionsByWorker(site, result);
      expect([0, 1].map((i) => byWorker.get(i)?.size)).toEqual([1, 1]);
    } finally {
      await rm(recorded, { recursive: true, force: true });
    }
  }, 300_000);
});
