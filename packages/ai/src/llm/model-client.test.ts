/**
 * The model client's failure modes against the scripted OpenAI/Anthropic server (no network): each
 * ends in a ModelError a user can act on, a retry honours Retry-After, and a stop cancels the call.
 */
import { AbortedError } from '@argus/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ScriptedModelServer, startScriptedModelServer } from '../testing';
import { ModelClient, type UsageRecord } from './model-client';
import type { ModelConfig, SpendGuard } from './model-config';
import { ModelError } from './model-errors';

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer(() => ({ text: 'OK' }));
});
afterAll(() => server.close());

const Answer = z.object({ verdict: z.enum(['yes', 'no']), why: z.string() });
const ask = (client: ModelClient, signal?: AbortSignal) =>
  client.object({
    kind: 'judge',
    system: 'Judge.',
    prompt: 'Is it?',
    schema: Answer,
    name: 'answer',
    signal,
  });

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

describe.each(['openai-compatible', 'anthropic', 'openai'] as const)(
  'through the %s provider',
  (provider) => {
    const config = (): ModelConfig => ({
      provider,
      model: provider === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o-mini',
      baseUrl: server.baseUrl,
      apiKey: 'sk-test-1234',
    });
    const client = (extra: Partial<ConstructorParameters<typeof ModelClient>[0]> = {}) =>
      new ModelClient({ config: config(), ...extra });

    it('returns the structured answer and counts its tokens and cost', async () => {
      server.respondWith(() => ({
        json: { verdict: 'yes', why: 'the page says so' },
        inputTokens: 1000,
        outputTokens: 50,
      }));
      const records: UsageRecord[] = [];
      const c = client({ onUsage: (r) => void records.push(r) });
      expect(await ask(c)).toEqual({ verdict: 'yes', why: 'the page says so' });
      expect(records).toEqual([
        expect.objectContaining({ kind: 'judge', inputTokens: 1000, outputTokens: 50 }),
      ]);
      expect(c.totals.calls).toBe(1);
      if (provider === 'openai-compatible') expect(c.totals.costUsd).toBe(0);
      else expect(c.totals.costUsd).toBeGreaterThan(0);
      expect(server.requests.at(-1)?.wantsJson).toBe(true);
    });

    it('shows an invalid JSON answer back to the model once, then says what was wrong', async () => {
      const start = server.requests.length;
      server.respondWith(() => ({ text: '{"verdict": "yes", "why": ' }));
      const error = await failure(ask(client()));
      expect(error.code).toBe('invalid_output');
      expect(error.message).toMatch(/not valid JSON|did not match/);
      expect(server.requests.length - start).toBe(2);
      expect(server.requests.at(-1)?.prompt).toContain('Your previous answer was rejected');
    });

    it('repairs a schema violation when the second answer is right', async () => {
      const start = server.requests.length;
      server.respondWith((_r, i) =>
        i === start ? { json: { verdict: 'maybe' } } : { json: { verdict: 'no', why: 'missing text' } },
      );
      expect(await ask(client())).toEqual({ verdict: 'no', why: 'missing text' });
    });

    it('says a schema violation plainly when it persists', async () => {
      server.respondWith(() => ({ json: { verdict: 'maybe' } }));
      const error = await failure(ask(client()));
      expect(error.code).toBe('invalid_output');
      expect(error.message).toContain('did not match the expected shape');
    });

    it('reports a refusal as one, in the model’s words', async () => {
      server.respondWith(() => ({ refuse: "I'm sorry, but I can't help with that." }));
      const error = await failure(ask(client()));
      expect(error.code).toBe('refused');
      expect(error.message).toMatch(/declined/);
    });

    it('waits as long as Retry-After asks after a 429, then succeeds', async () => {
      const start = server.requests.length;
      server.respondWith((_r, i) =>
        i === start
          ? { status: 429, message: 'Rate limit reached', headers: { 'retry-after': '1' } }
          : { json: { verdict: 'yes', why: 'ok' } },
      );
      const waits: string[] = [];
      expect(await ask(client({ onWait: (m) => void waits.push(m) }))).toEqual({ verdict: 'yes', why: 'ok' });
      expect(server.requests.length - start).toBe(2);
      expect(waits).toEqual(['The model provider answered HTTP 429; retrying in 1 s']);
    });

    it('gives up on a 429 that persists with a clear message', async () => {
      server.respondWith(() => ({
        status: 429,
        message: 'Rate limit reached',
        headers: { 'retry-after-ms': '10' },
      }));
      const start = server.requests.length;
      const error = await failure(ask(client({ maxRetries: 2 })));
      expect(error.code).toBe('rate_limited');
      expect(error.message).toContain('HTTP 429');
      expect(server.requests.length - start).toBe(3);
    });

    it('does not wait when Retry-After asks for longer than the cap', async () => {
      server.respondWith(() => ({ status: 429, headers: { 'retry-after': '3600' } }));
      const start = server.requests.length;
      const error = await failure(ask(client()));
      expect(error.code).toBe('rate_limited');
      expect(server.requests.length - start).toBe(1);
    });

    it('tells the user to check the API key on a 401', async () => {
      server.respondWith(() => ({ status: 401, message: 'Invalid API key' }));
      const error = await failure(ask(client()));
      expect(error.code).toBe('auth');
      expect(error.message).toContain('check your API key');
      expect(error.message).not.toContain('sk-test-1234');
    });

    it('names the model on a 404', async () => {
      server.respondWith(() => ({ status: 404, message: 'model not found' }));
      const error = await failure(ask(client()));
      expect(error.code).toBe('not_found');
    });

    it('times out a model that does not answer', async () => {
      server.respondWith(() => ({ hang: true }));
      const error = await failure(ask(client({ timeoutMs: 300 })));
      expect(error.code).toBe('timeout');
      expect(error.message).toBe('The model did not answer within 300 ms.');
    });

    it('cancels a call in flight when stopped', async () => {
      server.respondWith(() => ({ hang: true }));
      const stop = new AbortController();
      const call = ask(client({ timeoutMs: 30_000 }), stop.signal);
      setTimeout(() => stop.abort(), 100);
      // Well before the 30 s the client would wait: the test's own time limit is 5 s.
      await expect(call).rejects.toBeInstanceOf(AbortedError);
    });

    it('checks the budget before calling, and does not call when it is used up', async () => {
      const start = server.requests.length;
      const error = await failure(
        ask(
          client({
            beforeCall: async () => {
              throw new ModelError('budget', 'Your monthly model budget is used up.');
            },
          }),
        ),
      );
      expect(error.code).toBe('budget');
      expect(server.requests.length).toBe(start);
    });
  },
);

it('says which server could not be reached when it is down', async () => {
  const down = await startScriptedModelServer(() => ({ text: 'OK' }));
  const baseUrl = down.baseUrl;
  await down.close();
  const client = new ModelClient({
    config: { provider: 'openai-compatible', model: 'llama3.1', baseUrl },
    maxRetries: 0,
  });
  const error = await failure(ask(client));
  expect(error.code).toBe('unreachable');
  expect(error.message).toContain(baseUrl);
});

describe('spending', () => {
  const request = { kind: 'step' as const, system: 'Answer.', prompt: 'Say OK.' };

  it("holds a call's most likely cost before it is made and lets it go once its usage is stored, or when it fails", async () => {
    const events: string[] = [];
    const spend: SpendGuard = {
      async reserve({ estimateUsd }) {
        // gpt-4o-mini's list price: the prompt plus 4096 answer tokens at $0.6 per million.
        events.push(`hold ${estimateUsd > 0.0024 && estimateUsd < 0.003}`);
        return { settle: async () => void events.push('let go') };
      },
    };
    const config: ModelConfig = { provider: 'openai', model: 'gpt-4o-mini', baseUrl: server.baseUrl, spend };
    const c = new ModelClient({ config, maxRetries: 0, onUsage: () => void events.push('usage stored') });
    server.respondWith(() => ({ text: 'OK', inputTokens: 10, outputTokens: 1 }));
    await c.text(request);
    expect(events).toEqual(['hold true', 'usage stored', 'let go']);
    events.length = 0;
    server.respondWith(() => ({ status: 500, message: 'down' }));
    await failure(c.text(request));
    expect(events).toEqual(['hold true', 'let go']);
    // A hold refused: the call is never made.
    const before = server.requests.length;
    const refusing: SpendGuard = {
      reserve: async () => {
        throw new ModelError('budget', 'The cap is reached.');
      },
    };
    const refused = await failure(new ModelClient({ config: { ...config, spend: refusing } }).text(request));
    expect(refused).toMatchObject({ code: 'budget', message: 'The cap is reached.' });
    expect(server.requests.length).toBe(before);
  });

  it("says an unpriced model's cost is unknown rather than $0, and counts a given price", async () => {
    server.respondWith(() => ({ text: 'OK', inputTokens: 1_000_000, outputTokens: 0 }));
    const records: UsageRecord[] = [];
    const onUsage = (record: UsageRecord) => void records.push(record);
    const config: ModelConfig = { provider: 'openai-compatible', model: 'llama3.1', baseUrl: server.baseUrl };
    await new ModelClient({ config, onUsage }).text(request);
    await new ModelClient({ config: { ...config, price: { input: 0.5, output: 1 } }, onUsage }).text(request);
    expect(records.map((r) => [r.costUsd, r.costUnknown])).toEqual([
      [0, true],
      [0.5, undefined],
    ]);
  });
});
