import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase } from '@argus/db';
import { afterAll, describe, expect, it } from 'vitest';
import { apiTargets, client } from './testing/api-targets';
import { startInProcess } from './testing/in-process-server';
import { REPO_ROOT, type RunningServer } from './testing/spawn-server';

const CLOSED = {
  detail: 'Registration is closed on this server. Ask an administrator for an account.',
  code: 'REGISTRATION_CLOSED',
};

/** The built CLI `npm run user:add -- …` runs (apps/server/dist/user-add.js), with the server's environment. */
function userAdd(
  args: string[],
  env: Record<string, string>,
  stdin?: string,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'apps/server/dist/user-add.js'), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(stdin ?? '');
  });
}

describe.each(apiTargets())('REGISTRATION=closed, on $name', ({ name }) => {
  const pgUrl = process.env.TEST_DATABASE_URL;
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  /** A DATA_DIR, or a scratch PostgreSQL database, that servers and user:add share. */
  async function storage(): Promise<Record<string, string>> {
    const dataDir = await mkdtemp(join(tmpdir(), 'argus-registration-'));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    if (name === 'postgresql' && pgUrl) {
      const scratch = await createScratchDatabase(pgUrl);
      cleanup.push(() => scratch.drop());
      return { DATA_DIR: dataDir, DATABASE_URL: scratch.url };
    }
    return { DATA_DIR: dataDir };
  }

  it('answers registration with 403 and the reason, creating nobody; user:add makes an account that signs in', async () => {
    const env: Record<string, string> = { ...(await storage()), REGISTRATION: 'closed' };
    let server: RunningServer = await startInProcess(env);
    try {
      const api = client(server);
      for (const path of ['/api/auth/register', '/auth/register']) {
        const res = await api.call('POST', path, {
          json: {
            username: 'eve',
            email: 'eve@example.com',
            password: 'Passw0rd1',
            confirmPassword: 'Passw0rd1',
          },
        });
        expect(res.status).toBe(403);
        expect(res.data).toEqual(CLOSED);
      }
      // Even a body that would not have passed validation hears the same.
      expect((await api.call('POST', '/api/auth/register', { json: {} })).data).toEqual(CLOSED);
      expect((await api.login('eve')).status).toBe(401);

      const add = ['--username', 'alice', '--email', 'Alice@Example.com', '--password', 'Sup3rSecret'];
      if (!env.DATABASE_URL) {
        // The embedded database is the running server's alone: user:add says so and changes nothing.
        const busy = await userAdd(add, env);
        expect(busy.code, busy.err).toBe(1);
        expect(busy.err).toContain('is in use by another process (a running Argus server?)');
        await server.stop();
      }

      const made = await userAdd(add, env);
      expect(made.code, made.err).toBe(0);
      expect(made.out).toMatch(/^Created user 'alice' <Alice@Example\.com> \(id [0-9a-f-]{36}\) in /);
      // The same rules as registration: unique, and a strong enough password.
      const again = await userAdd(
        ['--username', 'ALICE', '--email', 'a2@example.com', '--password', 'Sup3rSecret'],
        env,
      );
      expect(again.code).toBe(1);
      expect(again.err).toContain('Username already registered');
      const sameEmail = await userAdd(
        ['--username', 'alice2', '--email', 'alice@example.com', '--password', 'Sup3rSecret'],
        env,
      );
      expect(sameEmail.code).toBe(1);
      expect(sameEmail.err).toContain('Email already registered');
      const weak = await userAdd(
        ['--username', 'bob', '--email', 'bob@example.com', '--password', 'weak'],
        env,
      );
      expect(weak.code).toBe(2);
      expect(weak.err).toContain('password: Password must be at least 8 characters');
      const missing = await userAdd(['--username', 'bob'], env);
      expect(missing.code).toBe(2);
      expect(missing.err).toContain('Usage: npm run user:add');
      // The password can come on standard input, out of the shell history.
      const piped = await userAdd(
        ['--username', 'bob', '--email', 'bob@example.com', '--password-stdin', '--full-name', 'Bob B'],
        env,
        'Piped-Passw0rd\n',
      );
      expect(piped.code, piped.err).toBe(0);

      if (!env.DATABASE_URL) server = await startInProcess(env);
      const api2 = client(server);
      const login = await api2.login('alice@example.com', 'Sup3rSecret');
      expect(login.status).toBe(200);
      const me = await api2.call('GET', '/api/auth/me', { token: login.data.access_token });
      expect(me.data).toMatchObject({ username: 'alice', email: 'Alice@Example.com' });
      const bob = await api2.login('bob', 'Piped-Passw0rd');
      expect(bob.status).toBe(200);
      expect(bob.data.user.full_name).toBe('Bob B');
      // Still closed.
      expect((await api2.register('carol')).status).toBe(403);
    } finally {
      await server.stop();
    }
  }, 180_000);

  it('stays open by default', async () => {
    const server = await startInProcess(await storage());
    try {
      const res = await client(server).register('dave');
      expect(res.status).toBe(201);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
