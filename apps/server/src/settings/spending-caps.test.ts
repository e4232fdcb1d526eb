import { ModelError } from '@argus/ai';
import { type ScriptedModelServer, startScriptedModelServer } from '@argus/ai/testing';
import { type Database, openMigratedPglite, repositories } from '@argus/db';
import { TargetPolicy } from '@argus/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { keyFromText, Secrets } from '../security/secrets';
import { ModelSettingsService } from './model-settings';

describe("the operator's caps on the server's model key", () => {
  let db: Database;
  let repos: ReturnType<typeof repositories>;
  let model: ScriptedModelServer;
  const secrets = new Secrets(keyFromText('test'));
  const policy = new TargetPolicy({ allowedTargets: ['127.0.0.1'] });
  // $1 per million tokens either way: a connection test reserves about $0.0041 (its prompt and 4096
  // output tokens), and each answer below costs $0.01 (10,000 input tokens).
  const PRICES = JSON.stringify({ 'local-m': { input: 1, output: 1 } });
  const service = (env: Record<string, string> = {}) =>
    new ModelSettingsService({
      config: loadConfig({
        AI_PROVIDER: 'openai-compatible',
        AI_MODEL: 'local-m',
        AI_BASE_URL: model.baseUrl,
        AI_API_KEY: 'server-key',
        AI_MODEL_PRICES: PRICES,
        AI_SERVER_KEY_TOTAL_MONTHLY_USD: '1000',
        ...env,
      }),
      repos,
      secrets,
      policy,
    });
  let n = 0;
  const newUser = async () => {
    n += 1;
    return (
      await repos.users.create({ username: `cap${n}`, email: `cap${n}@example.com`, password_hash: 'h' })
    ).id;
  };

  beforeAll(async () => {
    db = await openMigratedPglite();
    repos = repositories(db);
    model = await startScriptedModelServer(() => ({ text: 'OK', inputTokens: 10_000, outputTokens: 0 }));
  }, 60_000);
  afterAll(async () => {
    await model?.close();
    await db?.close();
  });

  it("stops a user's calls on the server key at the operator's per-user cap, which their own budget cannot raise", async () => {
    model.respondWith(() => ({ text: 'OK', inputTokens: 10_000, outputTokens: 0 }));
    const settings = service({ AI_SERVER_KEY_USER_MONTHLY_USD: '0.03' });
    const [carol, dave] = [await newUser(), await newUser()];
    // A budget of her own above the operator's cap changes nothing on the server's key.
    const view = await settings.update(carol, { monthly_budget_usd: 1000 });
    expect(view.server_default.user_monthly_cap_usd).toBe(0.03);
    for (let i = 0; i < 3; i++) expect((await settings.testConnection(carol, {})).ok).toBe(true);
    const sent = model.requests.length;
    const refused = await settings.testConnection(carol, {});
    expect(refused.ok).toBe(false);
    expect(refused.message).toMatch(
      /^The server's model allows each user \$0\.03 a month \(AI_SERVER_KEY_USER_MONTHLY_USD\): \$0\.03 spent since 1 \w+ \d{4} \(UTC\), and this call may cost up to \$0\.0041\. Calls resume on 1 \w+ \d{4}, or choose your own model and key in Settings\.$/,
    );
    expect(model.requests.length).toBe(sent);
    expect((await settings.view(carol)).budget_reached).toBe(true);
    // Another user has a cap of their own.
    expect((await settings.testConnection(dave, {})).ok).toBe(true);
    // Her own key is hers to spend: not held to the operator's cap, nor counted against it.
    await settings.update(carol, {
      ai_provider: 'openai-compatible',
      ai_model: 'local-m',
      ai_base_url: model.baseUrl,
      ai_api_key: 'sk-carol-0000',
    });
    expect((await settings.testConnection(carol, {})).ok).toBe(true);
    expect(model.requests.at(-1)?.headers.authorization).toBe('Bearer sk-carol-0000');
    expect(await repos.modelUsage.serverKeyCostSince(new Date(0), carol)).toBeCloseTo(0.03);
  });

  it("lets a user's own budget lower the operator's cap", async () => {
    model.respondWith(() => ({ text: 'OK', inputTokens: 10_000, outputTokens: 0 }));
    const settings = service({ AI_SERVER_KEY_USER_MONTHLY_USD: '5' });
    const erin = await newUser();
    await settings.update(erin, { monthly_budget_usd: 0.02 });
    for (let i = 0; i < 2; i++) expect((await settings.testConnection(erin, {})).ok).toBe(true);
    expect((await settings.testConnection(erin, {})).message).toMatch(
      /^Your monthly model budget of \$0\.02 /,
    );
  });

  it('holds what calls under way may cost, so parallel calls cannot together overshoot the cap', async () => {
    const settings = service({ AI_SERVER_KEY_USER_MONTHLY_USD: '0.01' });
    const frank = await newUser();
    const calls = 10;
    let arrived = 0;
    let refused = 0;
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const settled = () => {
      if (arrived + refused === calls) open();
    };
    // Every answer waits until each call has either reached the model or been refused: all are in flight at once.
    model.respondWith(async () => {
      arrived += 1;
      settled();
      await gate;
      return { text: 'OK', inputTokens: 0, outputTokens: 4000 };
    });
    const results = await Promise.all(
      Array.from({ length: calls }, () =>
        settings.testConnection(frank, {}).then((result) => {
          if (!result.ok) {
            refused += 1;
            settled();
          }
          return result;
        }),
      ),
    );
    const spent = await repos.modelUsage.serverKeyCostSince(new Date(0), frank);
    expect(spent).toBeLessThanOrEqual(0.01);
    expect(arrived).toBe(2);
    expect(results.filter((result) => result.ok)).toHaveLength(2);
    for (const result of results.filter((r) => !r.ok))
      expect(result.message).toMatch(
        /^The server's model allows each user \$0\.01 a month \(AI_SERVER_KEY_USER_MONTHLY_USD\)/,
      );
  });

  it('stops every user at the total monthly cap of the server key', async () => {
    model.respondWith(() => ({ text: 'OK', inputTokens: 10_000, outputTokens: 0 }));
    const already = await repos.modelUsage.serverKeyCostSince(new Date(0));
    const settings = service({ AI_SERVER_KEY_TOTAL_MONTHLY_USD: String(already + 0.012) });
    const [gail, hank] = [await newUser(), await newUser()];
    expect((await settings.testConnection(gail, {})).ok).toBe(true);
    expect((await settings.testConnection(hank, {})).message).toMatch(
      /^The server's model has reached its monthly limit of \$[\d.]+ for all users together \(AI_SERVER_KEY_TOTAL_MONTHLY_USD\)/,
    );
  });

  it('refuses an unpriced model on the server key unless the operator prices it or says it is free', async () => {
    model.respondWith(() => ({ text: 'OK', inputTokens: 10, outputTokens: 1 }));
    const ivan = await newUser();
    const unpriced = service({ AI_MODEL: 'mystery-m' });
    const error = await unpriced.effectiveModel(ivan).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toMatch(
      /^The server's model mystery-m has no known price, .*AI_MODEL_PRICES \(or sets AI_SERVER_KEY_FREE=true/,
    );
    const sent = model.requests.length;
    expect((await unpriced.testConnection(ivan, {})).message).toMatch(/AI_MODEL_PRICES/);
    expect(model.requests.length).toBe(sent);
    expect(
      (await service({ AI_MODEL: 'mystery-m', AI_SERVER_KEY_FREE: 'true' }).testConnection(ivan, {})).ok,
    ).toBe(true);
    const free = JSON.stringify({ 'mystery-m': { input: 0, output: 0 } });
    expect(
      (await service({ AI_MODEL: 'mystery-m', AI_MODEL_PRICES: free }).testConnection(ivan, {})).ok,
    ).toBe(true);
    // A user's own unpriced model still works; its cost is counted as unknown, not as $0.
    const jane = await newUser();
    await unpriced.update(jane, {
      ai_provider: 'openai-compatible',
      ai_model: 'mystery-m',
      ai_base_url: model.baseUrl,
    });
    expect((await unpriced.testConnection(jane, {})).ok).toBe(true);
    expect((await unpriced.view(jane)).usage).toMatchObject({
      model_calls: 1,
      cost_usd: 0,
      unpriced_calls: 1,
    });
  });
});
