import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScriptedModelServer, startScriptedModelServer } from '@argus/ai/testing';
import { openDatabase } from '@argus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTargets, client } from '../testing/api-targets';
import type { RunningServer } from '../testing/spawn-server';

const KEY = 'sk-test-abcd1234';

describe.each(apiTargets())('settings API on $name', ({ name, start }) => {
  let server: RunningServer;
  let model: ScriptedModelServer;
  let api: ReturnType<typeof client>;
  let alice: { token: string; user: { id: string } };
  let bob: { token: string; user: { id: string } };
  let dataDir: string;

  beforeAll(async () => {
    model = await startScriptedModelServer(() => ({ text: 'OK' }));
    dataDir = await mkdtemp(join(tmpdir(), 'argus-settings-'));
    // The scripted model server listens on 127.0.0.1, which a user's base URL may reach only when named.
    server = await start({ ALLOWED_TARGETS: '127.0.0.1', DATA_DIR: dataDir });
    api = client(server);
    alice = await api.signUp('alice');
    bob = await api.signUp('bob');
  });
  afterAll(async () => {
    await server?.stop();
    await model?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const get = (token: string) => api.call('GET', '/api/settings', { token });
  const put = (token: string, json: unknown) => api.call('PUT', '/api/settings', { token, json });
  const test = (token: string, json: unknown = {}) =>
    api.call('POST', '/api/settings/test-connection', { token, json });

  it('requires authentication', async () => {
    expect((await api.call('GET', '/api/settings')).status).toBe(401);
    expect((await api.call('PUT', '/api/settings', { json: {} })).status).toBe(401);
    expect((await api.call('POST', '/api/settings/test-connection', { json: {} })).status).toBe(401);
  });

  it('starts with the server default and no secrets', async () => {
    const res = await get(alice.token);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      ai_provider: null,
      ai_api_key: null,
      figma_token: null,
      monthly_budget_usd: null,
      server_default: { provider: 'builtin', model: null, figma_token_set: false },
      effective: { provider: 'builtin', source: 'server', name: 'Built-in (rule-based)' },
      usage: { model_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 },
      budget_reached: false,
      updated_at: null,
    });
  });

  it('stores the key encrypted, answers it masked, and never to another user', async () => {
    const saved = await put(alice.token, {
      ai_provider: 'openai-compatible',
      ai_model: 'llama3.1',
      ai_base_url: model.baseUrl,
      ai_api_key: KEY,
    });
    expect(saved.status).toBe(200);
    expect(saved.data).toMatchObject({
      ai_provider: 'openai-compatible',
      ai_model: 'llama3.1',
      ai_base_url: model.baseUrl,
      ai_api_key: 'sk-…1234',
      effective: { provider: 'openai-compatible', model: 'llama3.1', source: 'user' },
    });
    const again = await get(alice.token);
    expect(again.data.ai_api_key).toBe('sk-…1234');
    expect(JSON.stringify(again.data)).not.toContain('abcd1234');
    const other = await get(bob.token);
    expect(other.data).toMatchObject({ ai_provider: null, ai_api_key: null, ai_base_url: null });
    // Changing something else keeps the key.
    const renamed = await put(alice.token, { ai_model: 'llama3.2' });
    expect(renamed.data).toMatchObject({ ai_model: 'llama3.2', ai_api_key: 'sk-…1234' });
  });

  it('tests the connection against the model server, with the stored key', async () => {
    model.respondWith(() => ({ text: 'OK', inputTokens: 12, outputTokens: 1 }));
    const before = model.requests.length;
    const res = await test(alice.token);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ ok: true, reply: 'OK' });
    expect(res.data.message).toMatch(
      /^Connected to llama3\.2 \(openai-compatible\) in \d+ ms\. It replied: "OK"\.$/,
    );
    const sent = model.requests[before];
    expect(sent.model).toBe('llama3.2');
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    // The call is counted in the month's usage.
    const usage = (await get(alice.token)).data.usage;
    expect(usage).toMatchObject({ model_calls: 1, input_tokens: 12, output_tokens: 1 });
    // Overrides from the form, before saving: another model, and another key.
    const other = await test(alice.token, { ai_model: 'qwen2.5', ai_api_key: 'sk-other-key-5678' });
    expect(other.data.ok).toBe(true);
    expect(model.requests.at(-1)).toMatchObject({ model: 'qwen2.5' });
    expect(model.requests.at(-1)?.headers.authorization).toBe('Bearer sk-other-key-5678');
  });

  it('says to check the API key when the provider answers 401', async () => {
    model.respondWith(() => ({ status: 401, message: 'Incorrect API key provided' }));
    const res = await test(alice.token);
    expect(res.status).toBe(200);
    expect(res.data.ok).toBe(false);
    expect(res.data.message).toContain('check your API key in Settings');
    expect(res.data.message).toContain('HTTP 401');
    model.respondWith(() => ({ text: 'OK' }));
  });

  it('never sends a stored key to another provider or base URL origin: it asks for the key again', async () => {
    const erin = await api.signUp('erin');
    const elsewhere = await startScriptedModelServer(() => ({ text: 'OK' }));
    try {
      const key = 'sk-erin-secret-9876';
      const saved = { ai_provider: 'openai-compatible', ai_model: 'llama3.1', ai_base_url: model.baseUrl };
      await put(erin.token, { ...saved, ai_api_key: key });
      const again = `Your saved API key was for an OpenAI-compatible provider at ${new URL(model.baseUrl).origin}; it is only ever sent there, and the provider or base URL has changed since. Enter the API key again in Settings.`;
      // Another origin, only in the form.
      expect((await test(erin.token, { ai_base_url: elsewhere.baseUrl })).data).toMatchObject({
        ok: false,
        message: again,
      });
      // Another origin, saved.
      expect((await put(erin.token, { ai_base_url: elsewhere.baseUrl })).status).toBe(200);
      expect((await test(erin.token)).data).toMatchObject({ ok: false, message: again });
      // Another provider at the same address.
      await put(erin.token, { ai_provider: 'openai', ai_base_url: model.baseUrl });
      expect((await test(erin.token)).data).toMatchObject({ ok: false, message: again });
      expect(elsewhere.requests).toHaveLength(0);
      // Back where it was saved for, it is used again; given again, it goes to the new place.
      await put(erin.token, saved);
      expect((await test(erin.token)).data.ok).toBe(true);
      expect(model.requests.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);
      await put(erin.token, { ai_base_url: elsewhere.baseUrl, ai_api_key: key });
      expect((await test(erin.token)).data.ok).toBe(true);
      expect(elsewhere.requests.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);
    } finally {
      await elsewhere.close();
    }
  });

  it('refuses a base URL to cloud metadata or a private host not in ALLOWED_TARGETS, or another scheme', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1:8000/v1',
      'http://[fd00:ec2::254]/',
    ]) {
      const res = await put(bob.token, { ai_provider: 'openai-compatible', ai_model: 'm', ai_base_url: url });
      expect(res.status).toBe(422);
      expect(res.data.detail[0]).toMatchObject({ loc: ['body', 'ai_base_url'] });
      expect(res.data.detail[0].msg).toMatch(/^The server may not call this base URL: /);
      const tried = await test(bob.token, {
        ai_provider: 'openai-compatible',
        ai_model: 'm',
        ai_base_url: url,
      });
      expect(tried.status).toBe(422);
    }
    const metadata = await put(bob.token, {
      ai_provider: 'openai',
      ai_model: 'm',
      ai_base_url: 'http://169.254.169.254/',
    });
    expect(metadata.data.detail[0].msg).toContain('link-local or cloud-metadata');
    const scheme = await put(bob.token, { ai_base_url: 'file:///etc/passwd' });
    expect(scheme.status).toBe(422);
    expect(scheme.data.detail[0]).toMatchObject({
      loc: ['body', 'ai_base_url'],
      msg: 'The base URL must be an http:// or https:// address',
    });
    // The Argus server itself is never a model server.
    const self = await put(bob.token, {
      ai_provider: 'openai-compatible',
      ai_model: 'm',
      ai_base_url: `${server.url}/v1`,
    });
    expect(self.status).toBe(422);
    expect(self.data.detail[0].msg).toContain('the Argus server itself');
    // Nothing was stored.
    expect((await get(bob.token)).data).toMatchObject({ ai_provider: null, ai_base_url: null });
  });

  it('names what a provider still needs', async () => {
    const res = await put(bob.token, { ai_provider: 'openai-compatible' });
    expect(res.status).toBe(422);
    expect(res.data.detail.map((d: { loc: string[] }) => d.loc.at(-1))).toEqual(['ai_model', 'ai_base_url']);
    const bad = await put(bob.token, { ai_provider: 'gemini', monthly_budget_usd: -1 });
    expect(bad.status).toBe(422);
  });

  it('stops model calls once the monthly budget is reached, with a message that says so', async () => {
    // gpt-4o at list prices: 100,000 input tokens cost $0.25.
    await put(bob.token, {
      ai_provider: 'openai',
      ai_model: 'gpt-4o',
      ai_base_url: model.baseUrl,
      ai_api_key: 'sk-bob-0000000000',
      monthly_budget_usd: 0.2,
    });
    model.respondWith(() => ({ text: 'OK', inputTokens: 100_000, outputTokens: 0 }));
    const first = await test(bob.token);
    expect(first.data.ok).toBe(true);
    const calls = model.requests.length;
    const second = await test(bob.token);
    expect(second.data.ok).toBe(false);
    expect(second.data.message).toMatch(
      /^Your monthly model budget of \$0\.20 is reached: \$0\.25 spent since 1 \w+ \d{4} \(UTC\)\. Model calls resume on 1 \w+ \d{4}, or as soon as you raise the budget in Settings\.$/,
    );
    expect(model.requests.length).toBe(calls);
    const view = (await get(bob.token)).data;
    expect(view).toMatchObject({
      budget_reached: true,
      monthly_budget_usd: 0.2,
      usage: { model_calls: 1, cost_usd: 0.25 },
    });
    // Raising it lets calls through again.
    await put(bob.token, { monthly_budget_usd: 1 });
    expect((await test(bob.token)).data.ok).toBe(true);
    model.respondWith(() => ({ text: 'OK' }));
  });

  it('clears a secret with null, and a Figma token is kept masked too', async () => {
    const figma = await put(alice.token, { figma_token: 'figd_0123456789abcdefgh' });
    expect(figma.data.figma_token).toBe('…efgh');
    const cleared = await put(alice.token, { ai_api_key: null, figma_token: null });
    expect(cleared.status).toBe(200);
    expect(cleared.data).toMatchObject({ ai_api_key: null, figma_token: null, ai_model: 'llama3.2' });
    // Without a key the connection test sends none.
    const res = await test(alice.token);
    expect(res.data.ok).toBe(true);
    expect(model.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it('runs one connection test at a time per user, refusing a second while the first waits for its model', async () => {
    const dave = await api.signUp('dave');
    await put(dave.token, { ai_provider: 'openai-compatible', ai_model: 'slow', ai_base_url: model.baseUrl });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    model.respondWith(async () => {
      await held;
      return { text: 'OK' };
    });
    const before = model.requests.length;
    const first = test(dave.token);
    try {
      await expect.poll(() => model.requests.length).toBeGreaterThan(before);
      const second = await test(dave.token);
      expect(second.status).toBe(409);
      expect(second.data).toMatchObject({
        code: 'CONNECTION_TEST_BUSY',
        detail:
          'A connection test is already under way for your account; wait for its answer before starting another.',
      });
      // Another user's test is not held up by dave's.
      await put(bob.token, { ai_provider: 'builtin' });
      expect((await test(bob.token)).status).toBe(200);
    } finally {
      release();
    }
    expect((await first).data.ok).toBe(true);
    model.respondWith(() => ({ text: 'OK' }));
    // Once the first has answered, the next may start.
    expect((await test(dave.token)).data.ok).toBe(true);
  });

  it('limits connection tests per user', async () => {
    const carol = await api.signUp('carol');
    await put(carol.token, { ai_provider: 'builtin' });
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push((await test(carol.token)).status);
    expect(answers.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(answers[10]).toBe(429);
    // Another user is not held up.
    expect((await test(bob.token)).status).toBe(200);
  });

  it('keeps no secret in clear in the database', async () => {
    await put(alice.token, { ai_api_key: KEY, figma_token: 'figd_secret_token_value' });
    if (name !== 'pglite') return;
    await server.stop();
    const db = await openDatabase({ pgliteDir: join(dataDir, 'db') });
    try {
      const rows = await db.orm.execute('SELECT * FROM user_settings');
      const text = JSON.stringify(rows);
      expect(text).toContain('sk-…1234');
      expect(text).not.toContain('abcd1234');
      expect(text).not.toContain('figd_secret_token_value');
    } finally {
      await db.close();
    }
  });
});
