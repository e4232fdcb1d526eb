import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, testEngines } from './index';
import { type TwoUsers, twoUserDatabase } from './repository-fixture';
import { modelUsage } from './schema';

describe.each(testEngines())('user settings and model usage on $name', ({ open }) => {
  let db: Database;
  let repos: TwoUsers['repos'];
  let alice: string;
  let bob: string;
  const fixture = twoUserDatabase(open);
  beforeAll(async () => {
    ({ db, repos, alice, bob } = await fixture.open());
  }, 60_000);
  afterAll(fixture.close);

  it('has no settings until the first change, then keeps what a patch leaves out', async () => {
    expect(await repos.userSettings.get(alice)).toBeUndefined();
    expect(await repos.userSettings.get('not-a-uuid')).toBeUndefined();
    const first = await repos.userSettings.upsert(alice, {
      ai_provider: 'openai',
      ai_model: 'gpt-4o-mini',
      ai_api_key_enc: 'iv.tag.cipher',
      ai_api_key_last4: 'sk-…a1b2',
    });
    expect(first).toMatchObject({ user_id: alice, ai_provider: 'openai', ai_base_url: null });
    const second = await repos.userSettings.upsert(alice, { ai_model: 'gpt-4o', monthly_budget_usd: 5 });
    expect(second).toMatchObject({
      ai_provider: 'openai',
      ai_model: 'gpt-4o',
      ai_api_key_enc: 'iv.tag.cipher',
      monthly_budget_usd: 5,
    });
    expect(second.updated_at.getTime()).toBeGreaterThanOrEqual(first.updated_at.getTime());
    // null clears; undefined keeps.
    const third = await repos.userSettings.upsert(alice, {
      ai_api_key_enc: null,
      ai_api_key_last4: null,
      ai_model: undefined,
    });
    expect(third).toMatchObject({ ai_model: 'gpt-4o', ai_api_key_enc: null, ai_api_key_last4: null });
    // Another user's row is their own.
    expect(await repos.userSettings.get(bob)).toBeUndefined();
    await repos.userSettings.upsert(bob, { ai_provider: 'builtin' });
    expect((await repos.userSettings.get(alice))?.ai_provider).toBe('openai');
  });

  it("sums a user's model calls since a date, never another user's", async () => {
    const empty = await repos.modelUsage.totalsSince(alice, new Date(0));
    expect(empty).toEqual({
      model_calls: 0,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      unpriced_calls: 0,
    });
    const call = { kind: 'step', provider: 'openai', model: 'gpt-4o-mini' };
    await repos.modelUsage.record(alice, { ...call, input_tokens: 100, output_tokens: 20, cost_usd: 0.25 });
    await repos.modelUsage.record(alice, { ...call, input_tokens: 50, output_tokens: 5, cost_usd: 0.5 });
    await repos.modelUsage.record(bob, { ...call, input_tokens: 7, output_tokens: 7, cost_usd: 9 });
    expect(await repos.modelUsage.totalsSince(alice, new Date(Date.now() - 60_000))).toEqual({
      model_calls: 2,
      input_tokens: 150,
      output_tokens: 25,
      cost_usd: 0.75,
      unpriced_calls: 0,
    });
    expect((await repos.modelUsage.totalsSince(alice, new Date(Date.now() + 60_000))).model_calls).toBe(0);
  });

  it("sums the server key's cost per user and for everyone, and counts unpriced calls", async () => {
    const since = new Date(Date.now() - 60_000);
    const before = await repos.modelUsage.serverKeyCostSince(since);
    const call = { kind: 'step', provider: 'openai', model: 'server-m', input_tokens: 1, output_tokens: 1 };
    await repos.modelUsage.record(alice, { ...call, cost_usd: 0.5, server_key: true });
    await repos.modelUsage.record(bob, { ...call, cost_usd: 0.25, server_key: true });
    await repos.modelUsage.record(alice, { ...call, cost_usd: 2 });
    await repos.modelUsage.record(alice, { ...call, cost_usd: 0, cost_known: false });
    expect(await repos.modelUsage.serverKeyCostSince(since, alice)).toBe(0.5);
    expect((await repos.modelUsage.serverKeyCostSince(since)) - before).toBe(0.75);
    expect((await repos.modelUsage.totalsSince(alice, since)).unpriced_calls).toBe(1);
  });

  it("links a call to the user's own run only", async () => {
    const run = await repos.testRuns.create(bob, { url: 'https://example.com' });
    const call = {
      kind: 'step',
      provider: 'openai',
      model: 'm',
      input_tokens: 1,
      output_tokens: 1,
      cost_usd: 0,
    };
    await repos.modelUsage.record(alice, { ...call, test_run_id: run.id, session_id: 's1' });
    await repos.modelUsage.record(bob, { ...call, test_run_id: run.id });
    const list = await db.orm
      .select({ user_id: modelUsage.user_id, test_run_id: modelUsage.test_run_id })
      .from(modelUsage)
      .where(eq(modelUsage.model, 'm'));
    list.sort((a, b) => (a.user_id === alice ? -1 : b.user_id === alice ? 1 : 0));
    expect(list.map((r) => [r.user_id, r.test_run_id])).toEqual([
      [alice, null],
      [bob, run.id],
    ]);
  });
});
