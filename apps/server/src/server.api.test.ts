import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@argus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { apiTargets, client } from './testing/api-targets';
import { type RunningServer, spawnServer } from './testing/spawn-server';

let webDist: string;
beforeAll(async () => {
  // A stand-in web build, so these tests do not depend on `npm run build` having run.
  webDist = await mkdtemp(join(tmpdir(), 'argus-web-'));
  await writeFile(join(webDist, 'index.html'), '<!doctype html><div id="root">spa-shell</div>');
  await writeFile(join(webDist, 'app.js'), 'console.log(1)');
});
afterAll(async () => {
  await rm(webDist, { recursive: true, force: true });
});

describe.each(apiTargets())('server on $name', ({ name, start }) => {
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await start({ WEB_DIST: webDist });
    api = client(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers /api/health with the version and the database in use', async () => {
    const res = await api.call('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      status: 'ok',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      database: name,
    });
  });

  it('serves the web app for client-side routes and assets, and JSON 404s for unknown API paths', async () => {
    for (const path of ['/', '/dashboard', '/automation?x=1', '/some/unknown/page']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('spa-shell');
    }
    expect(await (await fetch(`${server.url}/app.js`)).text()).toBe('console.log(1)');
    const api404 = await api.call('GET', '/api/does-not-exist');
    expect(api404).toMatchObject({ status: 404, data: { detail: 'Not found' } });
  });

  it('stores a valid demo request (201) and refuses an incomplete one with 422 per field', async () => {
    const ok = await api.call('POST', '/api/demo-requests', {
      json: { name: 'Ada', email: 'ada@example.com', company: 'Engines Ltd', message: "Let's talk" },
    });
    expect(ok.status).toBe(201);
    expect(ok.data).toMatchObject({ success: true, id: expect.any(String) });
    const bad = await api.call('POST', '/api/demo-requests', { json: { name: '', email: 'nope' } });
    expect(bad.status).toBe(422);
    const locs = bad.data.detail.map((d: { loc: string[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.name', 'body.email', 'body.company']));
  });
});

describe('server process lifecycle (PGlite)', () => {
  it('shuts down cleanly on SIGTERM, closing sockets, and keeps every committed row across a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'argus-life-'));
    try {
      const first = await spawnServer({ DATA_DIR: dataDir, WEB_DIST: webDist, LOG_LEVEL: 'info' });
      const api = client(first);
      const { token, user } = await api.signUp('persist', 'Passw0rd1');
      await api.call('POST', '/api/sessions/', {
        token,
        json: { title: 'kept', session_type: 'automation' },
      });
      await api.call('POST', '/api/demo-requests', {
        json: { name: 'Ada', email: 'ada@example.com', company: 'Engines Ltd' },
      });

      // A token in the socket URL is refused, and the URL is logged without it.
      const inUrl = new WebSocket(`${first.url.replace('http', 'ws')}/ws/${user.id}?token=${token}`);
      expect(await new Promise<number>((resolve) => inUrl.once('close', resolve))).toBe(4401);
      const ws = new WebSocket(`${first.url.replace('http', 'ws')}/ws/${user.id}`);
      ws.once('open', () => ws.send(JSON.stringify({ type: 'auth', data: { token } })));
      await new Promise((resolve) => ws.once('message', resolve));
      const wsClosed = new Promise<number>((resolve) => ws.once('close', resolve));

      expect(await first.stop()).toBe(0);
      expect(await wsClosed).toBe(1012);
      // No secret reaches the log: not the password, not the token in the socket URL.
      expect(first.output()).not.toContain('Passw0rd1');
      expect(first.output()).not.toContain(token);
      expect(first.output()).toContain('[redacted]');

      const second = await spawnServer({ DATA_DIR: dataDir, WEB_DIST: webDist });
      const again = client(second);
      const login = await again.login('persist', 'Passw0rd1');
      expect(login.status).toBe(200);
      // The signing secret was kept in DATA_DIR, so the old token is still valid.
      const sessions = await again.call('GET', '/api/sessions/', { token });
      expect(sessions.data.map((s: { title: string }) => s.title)).toEqual(['kept']);
      expect(await second.stop()).toBe(0);

      const db = await openDatabase({ pgliteDir: join(dataDir, 'db') });
      const rows = (await db.orm.execute('SELECT company FROM demo_requests')) as unknown as {
        rows: unknown[];
      };
      expect(rows.rows).toEqual([{ company: 'Engines Ltd' }]);
      await db.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
