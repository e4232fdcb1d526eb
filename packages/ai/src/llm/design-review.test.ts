/**
 * The design review against the scripted OpenAI/Anthropic server (no network, no browser): the two
 * images of the first viewport go out with the measured findings, the answer is checked and marked as
 * the model's, an invalid answer and a provider error end in a ModelError, and a stop cancels the call.
 */
import { crc32, deflateSync } from 'node:zlib';
import { AbortedError } from '@argus/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScriptedModelServer, startScriptedModelServer } from '../testing';
import { type DesignReviewRequest, reviewDesign } from './design-review';
import { ModelClient, type UsageRecord } from './model-client';
import type { ModelConfig } from './model-config';
import { ModelError } from './model-errors';

/** A real 1 × 1 PNG of one colour, so the SDK sends it as image/png. */
function png(rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, ...rgb]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const viewports: DesignReviewRequest['viewports'] = [
  { name: 'desktop', width: 1440, height: 900, site: png([255, 255, 255]), design: png([0, 0, 255]) },
  { name: 'mobile', width: 375, height: 667, site: png([255, 255, 255]), design: png([0, 0, 255]) },
];
const measured = {
  overall_similarity: 87.4,
  issues: ['Colour differs in the header', 'Layout shift near the footer'],
  css_fixes: 3,
};
const answer = {
  recommendations: [
    {
      suggestion: 'The hero button is outlined on the site but filled in the design',
      priority: 'high',
      category: 'color',
      impact: 'The main call to action is less visible.',
      solution: '.hero .button { background: #1a73e8; color: #fff; }',
    },
    {
      suggestion: 'The testimonial section of the design is missing',
      priority: 'medium',
      category: 'content',
      impact: 'Visitors miss the social proof.',
      solution: 'Add the testimonials block below the features.',
    },
  ],
};

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer(() => ({ json: answer }));
});
afterAll(() => server.close());

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

describe.each(['openai', 'anthropic'] as const)('through the %s wire format', (provider) => {
  const config: ModelConfig = {
    provider,
    model: provider === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o',
    baseUrl: '',
    apiKey: 'sk-test-1234',
  };
  const client = (records: UsageRecord[] = []) =>
    new ModelClient({
      config: { ...config, baseUrl: server.baseUrl },
      onUsage: (r) => void records.push(r),
      maxRetries: 0,
    });

  it('sends the first viewport’s two images with the measured findings and marks each recommendation', async () => {
    server.respondWith(() => ({ json: answer, inputTokens: 2000, outputTokens: 120 }));
    const before = server.requests.length;
    const records: UsageRecord[] = [];
    const review = await reviewDesign({ client: client(records), viewports, measured });
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].wire).toBe(provider);
    expect(sent[0].images).toBe(2);
    expect(sent[0].wantsJson).toBe(true);
    expect(sent[0].prompt).toContain('desktop, 1440 × 900');
    expect(sent[0].prompt).toContain('- Colour differs in the header');
    expect(sent[0].prompt).toContain('Measured overall similarity: 87%');
    expect(JSON.stringify(sent[0].body)).toContain('image/png');
    const engine = `LLM (${provider} · ${config.model})`;
    expect(review.engine).toBe(engine);
    expect(review.recommendations).toEqual([
      {
        suggestion: 'AI review: The hero button is outlined on the site but filled in the design',
        priority: 'high',
        category: 'color',
        impact: `The main call to action is less visible. (AI visual review by ${engine}; not measured)`,
        solution: '.hero .button { background: #1a73e8; color: #fff; }',
      },
      expect.objectContaining({
        suggestion: 'AI review: The testimonial section of the design is missing',
        category: 'content',
      }),
    ]);
    expect(review.usage).toMatchObject({ calls: 1, inputTokens: 2000, outputTokens: 120 });
    expect(records).toEqual([expect.objectContaining({ kind: 'design_review', inputTokens: 2000 })]);
  });

  it('keeps at most eight recommendations', async () => {
    const many = Array.from({ length: 12 }, (_, i) => ({
      ...answer.recommendations[0],
      suggestion: `Item ${i}`,
    }));
    server.respondWith(() => ({ json: { recommendations: many } }));
    const review = await reviewDesign({ client: client(), viewports, measured });
    expect(review.recommendations.map((r) => r.suggestion)).toEqual(
      Array.from({ length: 8 }, (_, i) => `AI review: Item ${i}`),
    );
  });

  it('ends in a ModelError when the answer stays invalid after one repair', async () => {
    server.respondWith(() => ({ json: { recommendations: [{ suggestion: 'x', category: 'vibes' }] } }));
    const before = server.requests.length;
    const error = await failure(reviewDesign({ client: client(), viewports, measured }));
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).code).toBe('invalid_output');
    // The invalid answer was shown back to the model once.
    expect(server.requests.length - before).toBe(2);
  });

  it('ends in a ModelError a user can read when the provider refuses the key', async () => {
    server.respondWith(() => ({ status: 401, message: 'Invalid API key' }));
    const error = await failure(reviewDesign({ client: client(), viewports, measured }));
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).code).toBe('auth');
    expect((error as ModelError).message).not.toContain('sk-test-1234');
  });

  it('is cancelled by a stop', async () => {
    server.respondWith(() => ({ hang: true }));
    const stop = new AbortController();
    const before = server.requests.length;
    const pending = failure(reviewDesign({ client: client(), viewports, measured, signal: stop.signal }));
    // Stopped once the request has reached the server (not on a timer).
    while (server.requests.length === before) await new Promise((r) => setImmediate(r));
    stop.abort();
    expect(await pending).toBeInstanceOf(AbortedError);
  });
});
