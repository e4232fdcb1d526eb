/**
 * "Export to Playwright" over HTTP: a saved suite answers a zip of a Playwright Test project named after
 * the suite, with the TODO count in a header; owner-scoped like every project route; and no secret's
 * value is in any exported file (the export reads secrets by name only).
 */

import type { FastifyInstance } from 'fastify';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTargets, client } from '../testing/api-targets';
import type { RunningServer } from '../testing/spawn-server';

const PASSWORD = 'Tr0ub4dor&3-never-exported';
const TOTP = 'JBSWY3DPEHPK3PXP';
const API_KEY = 'sk-live-0123456789-staging-only';

describe.each(apiTargets())('suite export API, on $name', ({ start }) => {
  let server: RunningServer & { app?: FastifyInstance };
  let api: ReturnType<typeof client>;
  let alice: { token: string };
  let bob: { token: string };
  let project: { id: string; environments: { id: string; name: string }[] };
  let suite: { id: string };

  /** The raw answer (the client reads bodies as text; a zip is bytes). */
  async function download(path: string, token: string) {
    const headers = { authorization: `Bearer ${token}` };
    if (server.app) {
      const res = await server.app.inject({ method: 'GET', url: path, headers });
      return {
        status: res.statusCode,
        headers: new Headers(res.headers as Record<string, string>),
        body: new Uint8Array(res.rawPayload),
      };
    }
    const res = await fetch(`${server.url}${path}`, { headers });
    return { status: res.status, headers: res.headers, body: new Uint8Array(await res.arrayBuffer()) };
  }

  beforeAll(async () => {
    server = await start();
    api = client(server);
    alice = await api.signUp('alice');
    bob = await api.signUp('bob');
    const created = await api.call('POST', '/api/projects', {
      token: alice.token,
      json: {
        name: 'Shop',
        environments: [
          { name: 'staging', base_url: 'https://staging.shop.test/' },
          { name: 'production', base_url: 'https://shop.test/' },
        ],
      },
    });
    project = created.data;
    const staging = project.environments.find((e) => e.name === 'staging')?.id ?? null;
    for (const variable of [
      { name: 'EMAIL', value: 'qa@shop.test', secret: false },
      { name: 'EMAIL', value: 'qa-staging@shop.test', secret: false, environment_id: staging },
      { name: 'PASSWORD', value: PASSWORD, secret: true },
      { name: 'TOTP', value: TOTP, secret: true },
      { name: 'API_KEY', value: API_KEY, secret: true, environment_id: staging },
    ]) {
      const res = await api.call('PUT', `/api/projects/${project.id}/variables`, {
        token: alice.token,
        json: variable,
      });
      expect(res.status, JSON.stringify(res.data)).toBeLessThan(300);
    }
    const login = await api.call('PUT', `/api/projects/${project.id}`, {
      token: alice.token,
      json: {
        login: {
          mode: 'credentials',
          login_url: '/login',
          username_variable: 'EMAIL',
          password_secret: 'PASSWORD',
          totp_secret: 'TOTP',
        },
      },
    });
    expect(login.status).toBe(200);
    const saved = await api.call('POST', `/api/projects/${project.id}/suites`, {
      token: alice.token,
      json: {
        name: 'Checkout: smoke',
        test_cases: [
          {
            test_name: 'Pay with the saved card',
            steps: [
              'Navigate to /checkout',
              'Fill "API key" with "{{API_KEY}}"',
              'Fill "Password" with "{{PASSWORD}}"',
              'Click button "Pay"',
              'Verify text "Thank you" is visible',
            ],
          },
          {
            test_name: 'Cheapest shirt',
            steps: ['Add the cheapest shirt to the cart', 'Verify no accessibility violations'],
          },
        ],
      },
    });
    expect(saved.status).toBe(201);
    suite = saved.data;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const exportPath = (query = '') => `/api/projects/${project.id}/suites/${suite.id}/export${query}`;

  it('answers a zip named after the suite, with the TODO count in X-Argus-Export-Todo', async () => {
    const res = await download(exportPath(), alice.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="Checkout-smoke-playwright.zip"',
    );
    expect(res.headers.get('x-argus-export-todo')).toBe('2');
    const files = unzipSync(res.body);
    expect(Object.keys(files).sort()).toEqual(
      [
        '.env.example',
        '.gitignore',
        'README.md',
        'package.json',
        'playwright.config.ts',
        'tests/checkout-smoke.spec.ts',
        'tests/support/argus.ts',
        'tests/support/auth.ts',
        'tests/support/env.ts',
        'tests/support/login.ts',
      ].map((p) => `Checkout-smoke-playwright/${p}`),
    );
    const read = (p: string) => strFromU8(files[`Checkout-smoke-playwright/${p}`]);
    expect(read('README.md')).toContain('**2 lines left as TODO comments**');
    // The default environment (staging, the first): its base URL and its own value of EMAIL.
    expect(read('playwright.config.ts')).toContain("?? 'https://staging.shop.test/'");
    expect(read('tests/support/env.ts')).toContain("EMAIL: 'qa-staging@shop.test',");
    // Signed in once per Playwright worker (tests/support/auth.ts), with the environment's password.
    expect(read('tests/support/login.ts')).toContain("password: env('PASSWORD'),");
    expect(read('tests/checkout-smoke.spec.ts')).toContain("await input.fill(env('API_KEY'));");
  });

  it('exports for the environment named, with its values', async () => {
    const production = project.environments.find((e) => e.name === 'production')?.id ?? '';
    const res = await download(exportPath(`?environment_id=${production}`), alice.token);
    expect(res.status).toBe(200);
    const files = unzipSync(res.body);
    const read = (p: string) => strFromU8(files[`Checkout-smoke-playwright/${p}`]);
    expect(read('playwright.config.ts')).toContain("?? 'https://shop.test/'");
    expect(read('tests/support/env.ts')).toContain("EMAIL: 'qa@shop.test',");
    expect(read('.env.example')).not.toContain('API_KEY');
    expect((await download(exportPath('?environment_id=999999'), alice.token)).status).toBe(404);
  });

  it('writes no secret value into any exported file', async () => {
    for (const query of ['', `?environment_id=${project.environments[1].id}`]) {
      const res = await download(exportPath(query), alice.token);
      const files = unzipSync(res.body);
      for (const [path, bytes] of Object.entries(files)) {
        const text = strFromU8(bytes);
        for (const secret of [PASSWORD, TOTP, API_KEY])
          expect(text, `${path} holds a secret`).not.toContain(secret);
      }
      // Nor the zip itself (its names and metadata).
      const raw = Buffer.from(res.body).toString('latin1');
      for (const secret of [PASSWORD, TOTP, API_KEY]) expect(raw).not.toContain(secret);
    }
  });

  it("answers 404 for another user's project or suite, like a missing one", async () => {
    const theirs = await download(exportPath(), bob.token);
    expect(theirs.status).toBe(404);
    const missing = await download(`/api/projects/${project.id}/suites/999999/export`, alice.token);
    expect(missing.status).toBe(404);
    expect(JSON.parse(Buffer.from(theirs.body).toString()).code).toBe('PROJECT_NOT_FOUND');
    const bobs = await api.call('POST', '/api/projects', {
      token: bob.token,
      json: { name: 'Mine', environments: [{ name: 'prod', base_url: 'https://bob.test/' }] },
    });
    // Alice's suite under Bob's project: not found either.
    expect(
      (await download(`/api/projects/${bobs.data.id}/suites/${suite.id}/export`, bob.token)).status,
    ).toBe(404);
    expect((await download(exportPath(), '')).status).toBe(401);
  });
});
