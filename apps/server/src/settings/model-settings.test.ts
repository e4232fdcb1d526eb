import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelError } from '@argus/ai';
import { type Database, openMigratedPglite, repositories } from '@argus/db';
import { TargetPolicy } from '@argus/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { keyFromText, loadSecretsKey, Secrets, SecretUnreadableError } from '../security/secrets';
import { formatUsd, ModelSettingsService, monthStart } from './model-settings';

describe('secrets', () => {
  const secrets = new Secrets(keyFromText('a passphrase'));

  it('encrypts with a fresh IV each time, bound to its context', () => {
    const a = secrets.encrypt('sk-test-abcd1234', 'ai_api_key:u1');
    const b = secrets.encrypt('sk-test-abcd1234', 'ai_api_key:u1');
    expect(a).not.toBe(b);
    expect(a).not.toContain('abcd1234');
    expect(a.split('.')).toHaveLength(3);
    expect(secrets.decrypt(a, 'ai_api_key:u1')).toBe('sk-test-abcd1234');
    // Copied into another user's row, or another field, it does not open.
    expect(() => secrets.decrypt(a, 'ai_api_key:u2')).toThrow(SecretUnreadableError);
    expect(() => secrets.decrypt(a, 'figma_token:u1')).toThrow(SecretUnreadableError);
    expect(() => new Secrets(keyFromText('another')).decrypt(a, 'ai_api_key:u1')).toThrow(
      SecretUnreadableError,
    );
    expect(() => secrets.decrypt('garbage', 'ai_api_key:u1')).toThrow(SecretUnreadableError);
  });

  it('binds a secret to a label kept in clear, which cannot be altered', () => {
    const stored = secrets.encrypt('sk-test-abcd1234', 'ai_api_key:u1', 'openai https://api.example.com');
    expect(secrets.bindingOf(stored)).toBe('openai https://api.example.com');
    expect(secrets.decrypt(stored, 'ai_api_key:u1')).toBe('sk-test-abcd1234');
    const [iv, tag, body] = stored.split('.');
    const relabelled = [iv, tag, body, Buffer.from('openai https://evil.example').toString('base64')].join(
      '.',
    );
    expect(() => secrets.decrypt(relabelled, 'ai_api_key:u1')).toThrow(SecretUnreadableError);
    expect(() => secrets.decrypt([iv, tag, body].join('.'), 'ai_api_key:u1')).toThrow(SecretUnreadableError);
  });

  it('reads SECRETS_KEY as hex, base64 or a passphrase', () => {
    const bytes = Buffer.alloc(32, 7);
    expect(keyFromText(bytes.toString('hex'))).toEqual(bytes);
    expect(keyFromText(bytes.toString('base64'))).toEqual(bytes);
    expect(keyFromText('short')).toHaveLength(32);
    expect(keyFromText('short')).toEqual(keyFromText('short'));
  });

  it('generates DATA_DIR/secrets.key once, mode 0600', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'argus-secrets-'));
    try {
      const first = await loadSecretsKey(dir);
      const again = await loadSecretsKey(dir);
      expect(again).toEqual(first);
      expect((await stat(join(dir, 'secrets.key'))).mode & 0o777).toBe(0o600);
      expect((await readFile(join(dir, 'secrets.key'), 'utf8')).length).toBeGreaterThan(40);
      expect(await loadSecretsKey(dir, 'configured')).toEqual(keyFromText('configured'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('model settings', () => {
  let db: Database;
  let repos: ReturnType<typeof repositories>;
  let alice: string;
  let bob: string;
  let now = new Date('2025-03-15T12:00:00Z');
  const secrets = new Secrets(keyFromText('test'));
  const policy = new TargetPolicy({ resolve: async () => ['93.184.215.14'] });
  const service = (env: Record<string, string> = {}) =>
    new ModelSettingsService({
      config: loadConfig({ ...env }),
      repos,
      secrets,
      policy,
      now: () => now,
    });

  beforeAll(async () => {
    db = await openMigratedPglite();
    repos = repositories(db);
    alice = (await repos.users.create({ username: 'alice', email: 'a@example.com', password_hash: 'h' })).id;
    bob = (await repos.users.create({ username: 'bob', email: 'b@example.com', password_hash: 'h' })).id;
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  it('uses the built-in engine when nobody configures a model', async () => {
    const settings = service();
    expect(await settings.effectiveModel(alice)).toBeNull();
    const view = await settings.view(alice);
    expect(view.effective).toEqual({
      provider: 'builtin',
      model: null,
      source: 'server',
      name: 'Built-in (rule-based)',
    });
    expect(view.server_default).toEqual({ provider: 'builtin', model: null, figma_token_set: false });
  });

  it("lets a user's provider override the server's, stores the key encrypted and shows it masked", async () => {
    const settings = service();
    const view = await settings.update(alice, {
      ai_provider: 'openai',
      ai_model: 'gpt-4o-mini',
      ai_api_key: 'sk-test-abcd1234',
    });
    expect(view).toMatchObject({ ai_provider: 'openai', ai_api_key: 'sk-…1234' });
    expect(JSON.stringify(view)).not.toContain('abcd1234');
    const row = await repos.userSettings.get(alice);
    expect(row?.ai_api_key_enc).not.toContain('abcd1234');
    expect(await settings.effectiveModel(alice)).toMatchObject({
      config: { provider: 'openai', model: 'gpt-4o-mini', baseUrl: undefined, apiKey: 'sk-test-abcd1234' },
      source: 'user',
    });
    expect(await settings.effectiveModel(bob)).toBeNull();
  });

  it("says 'builtin' explicitly means the built-in engine, even when the server has a model", async () => {
    // AI_PROVIDER accepts model providers once the planner registry does; the service reads the config as given.
    const config = {
      ...loadConfig({}),
      aiProvider: 'anthropic',
      aiModel: 'claude-haiku-4-5',
      aiApiKey: 'server-key',
    };
    const settings = new ModelSettingsService({
      config: config as never,
      repos,
      secrets,
      policy,
      now: () => now,
    });
    expect(await settings.effectiveModel(bob)).toMatchObject({
      config: {
        provider: 'anthropic',
        model: 'claude-haiku-4-5',
        baseUrl: undefined,
        apiKey: 'server-key',
        serverKey: true,
      },
      source: 'server',
    });
    const view = await settings.view(bob);
    expect(view.server_default).toMatchObject({ provider: 'anthropic', model: 'claude-haiku-4-5' });
    expect(JSON.stringify(view)).not.toContain('server-key');
    await settings.update(bob, { ai_provider: 'builtin' });
    expect(await settings.effectiveModel(bob)).toBeNull();
    expect((await settings.view(bob)).effective).toMatchObject({ provider: 'builtin', source: 'user' });
  });

  it('keeps a key saved before keys were bound working where it was saved for, and nowhere else', async () => {
    const settings = service();
    const kim = (await repos.users.create({ username: 'kim', email: 'k@example.com', password_hash: 'h' }))
      .id;
    await repos.userSettings.upsert(kim, {
      ai_provider: 'openai',
      ai_model: 'gpt-4o-mini',
      ai_api_key_enc: secrets.encrypt('sk-legacy-1111', `ai_api_key:${kim}`),
      ai_api_key_last4: 'sk-…1111',
    });
    expect((await settings.effectiveModel(kim))?.config.apiKey).toBe('sk-legacy-1111');
    await settings.update(kim, { ai_base_url: 'https://api.example.com/v1' });
    await expect(settings.effectiveModel(kim)).rejects.toThrow(
      "Your saved API key was for OpenAI's own API; it is only ever sent there",
    );
    await settings.update(kim, { ai_base_url: null });
    expect((await settings.effectiveModel(kim))?.config.apiKey).toBe('sk-legacy-1111');
  });

  it('refuses a base URL the target policy refuses, naming why', async () => {
    const settings = service();
    const refused = await settings
      .update(alice, { ai_provider: 'openai-compatible', ai_base_url: 'http://169.254.169.254/v1' })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({
      status: 422,
      detail: [
        {
          loc: ['body', 'ai_base_url'],
          msg: 'The server may not call this base URL: 169.254.169.254 is a link-local or cloud-metadata address.',
        },
      ],
    });
    expect(await settings.baseUrlProblem('http://10.1.2.3:8000/v1')).toMatch(/add it to ALLOWED_TARGETS/);
    expect(await settings.baseUrlProblem('https://api.example.com/v1')).toBeNull();
  });

  it('stops model calls once the month reaches the budget, and says until when', async () => {
    now = new Date('2025-03-15T12:00:00Z');
    const settings = service();
    await settings.checkBudget(alice);
    await settings.update(alice, { monthly_budget_usd: 1 });
    const usage = {
      kind: 'step' as const,
      provider: 'openai',
      model: 'gpt-4o-mini',
      inputTokens: 10,
      outputTokens: 5,
    };
    await settings.recordUsage(alice, { ...usage, costUsd: 0.4 });
    await settings.checkBudget(alice);
    now = new Date('2025-03-31T23:59:00Z');
    await settings.recordUsage(alice, { ...usage, costUsd: 0.75 });
    const error = await settings.checkBudget(alice).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({
      code: 'budget',
      message:
        'Your monthly model budget of $1.00 is reached: $1.15 spent since 1 March 2025 (UTC). ' +
        'Model calls resume on 1 April 2025, or as soon as you raise the budget in Settings.',
    });
    expect((await settings.view(alice)).budget_reached).toBe(true);
    expect((await settings.testConnection(alice, {})).message).toMatch(/^Your monthly model budget/);
    await settings.checkBudget(bob);
    // The next month counts from zero (the rows carry the real clock's time, so: a month after them).
    now = new Date('2999-01-01T00:00:01Z');
    expect(monthStart(now).toISOString()).toBe('2999-01-01T00:00:00.000Z');
    await settings.checkBudget(alice);
    expect((await settings.view(alice)).usage.model_calls).toBe(0);
    now = new Date('2025-03-31T23:59:00Z');
    // Raising (here: removing) the budget lets calls through at once.
    await settings.update(alice, { monthly_budget_usd: null });
    await settings.checkBudget(alice);
  });

  it('keeps a Figma token per user, else the server one when the operator shares it', async () => {
    const settings = service({ FIGMA_TOKEN: 'server-figma', FIGMA_TOKEN_SHARED: 'true' });
    expect(await settings.figmaToken(alice)).toBe('server-figma');
    expect((await settings.view(alice)).server_default.figma_token_set).toBe(true);
    const view = await settings.update(alice, { figma_token: 'figd_0123456789abcdef' });
    expect(view.figma_token).toBe('…cdef');
    expect(await settings.figmaToken(alice)).toBe('figd_0123456789abcdef');
    expect(await settings.figmaToken(bob)).toBe('server-figma');
    await settings.update(alice, { figma_token: null });
    expect(await settings.figmaToken(alice)).toBe('server-figma');
  });

  it("does not lend the server's FIGMA_TOKEN to users without their own unless FIGMA_TOKEN_SHARED=true", async () => {
    const settings = service({ FIGMA_TOKEN: 'server-figma' });
    expect(await settings.figmaToken(bob)).toBeUndefined();
    expect((await settings.view(bob)).server_default.figma_token_set).toBe(false);
    // A user's own token is used as ever.
    await settings.update(alice, { figma_token: 'figd_alice_own_token' });
    expect(await settings.figmaToken(alice)).toBe('figd_alice_own_token');
    await settings.update(alice, { figma_token: null });
    expect(() => service({ FIGMA_TOKEN_SHARED: 'yes' })).toThrow(
      "FIGMA_TOKEN_SHARED must be 'true' or 'false', got 'yes'",
    );
  });

  it("reads the operator's caps and prices, and stops at a malformed one naming the setting", () => {
    expect(loadConfig({})).toMatchObject({
      aiServerKeyUserMonthlyUsd: 5,
      aiServerKeyTotalMonthlyUsd: 50,
      aiModelPrices: {},
      aiServerKeyFree: false,
    });
    expect(
      loadConfig({
        AI_MODEL_PRICES: '{"llama3.1": {"input": 0, "output": 0.5}}',
        AI_SERVER_KEY_FREE: 'true',
      }),
    ).toMatchObject({ aiModelPrices: { 'llama3.1': { input: 0, output: 0.5 } }, aiServerKeyFree: true });
    expect(() => loadConfig({ AI_MODEL_PRICES: '{"m": {"input": 1}}' })).toThrow(
      /^AI_MODEL_PRICES must be JSON like .*; 'm' needs non-negative numbers "input" and "output"$/,
    );
    expect(() => loadConfig({ AI_SERVER_KEY_USER_MONTHLY_USD: '-1' })).toThrow(
      "AI_SERVER_KEY_USER_MONTHLY_USD must be a non-negative amount of US dollars, got '-1'",
    );
  });

  it('formats money', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.0042)).toBe('$0.0042');
    expect(formatUsd(12.5)).toBe('$12.50');
    expect(formatUsd(0.00001)).toBe('< $0.0001');
  });
});
