import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testConnection } from '@argus/ai';
import { TargetPolicy } from '@argus/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyFetch } from './policy-fetch';

/** Answers like a model on /v1/chat/completions; /redirect sends to 127.0.0.2, where "metadata" answers. */
let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith('/redirect')) {
      res.writeHead(302, { location: `http://127.0.0.2:${port}/latest/meta-data` }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('AccessKeyId=AKIA-SECRET');
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: Error) => `${error.message} ${error.cause instanceof Error ? error.cause.message : ''}`.trim(),
  );

describe('policyFetch: calls to an address a user chose', () => {
  const allowLoopback = new TargetPolicy({ allowedTargets: ['127.0.0.1'] });

  it('reaches an address the policy allows', async () => {
    const answer = await policyFetch(allowLoopback)(`http://127.0.0.1:${port}/`);
    expect(await answer.text()).toBe('AccessKeyId=AKIA-SECRET');
  });

  it('refuses an address the policy refuses, before connecting', async () => {
    expect(await refusal(policyFetch(allowLoopback)(`http://127.0.0.2:${port}/`))).toBe(
      'The server may not call this address: 127.0.0.2 is a loopback address; add it to ALLOWED_TARGETS to test it.',
    );
    expect(await refusal(policyFetch(allowLoopback)('http://169.254.169.254/latest/meta-data'))).toMatch(
      /^The server may not call this address: 169\.254\.169\.254 is/,
    );
  });

  it('refuses redirects, so an allowed host cannot send the call elsewhere', async () => {
    expect(await refusal(policyFetch(allowLoopback)(`http://127.0.0.1:${port}/redirect`))).toMatch(
      /redirect/,
    );
  });

  it('connects to the very address it judged, even when DNS answers differently the second time', async () => {
    let asked = 0;
    // First answer: an allowed address; every later one: cloud metadata (a rebinding DNS server).
    const rebinding = new TargetPolicy({
      allowedTargets: ['127.0.0.1'],
      resolve: async () => (asked++ === 0 ? ['127.0.0.1'] : ['169.254.169.254']),
    });
    expect(await refusal(policyFetch(rebinding)(`http://model.test:${port}/`))).toMatch(/169\.254\.169\.254/);
    // A host name only the policy can resolve is reached at the address it judged.
    const pinned = new TargetPolicy({ allowedTargets: ['127.0.0.1'], resolve: async () => ['127.0.0.1'] });
    expect(await (await policyFetch(pinned)(`http://model.test:${port}/`)).text()).toBe(
      'AccessKeyId=AKIA-SECRET',
    );
  });

  it('a model connection test through it neither follows the redirect nor quotes what answered', async () => {
    for (const provider of ['openai', 'anthropic', 'openai-compatible'] as const) {
      const result = await testConnection({
        provider,
        model: 'm',
        baseUrl: `http://127.0.0.1:${port}/redirect/v1`,
        apiKey: 'k',
        fetch: policyFetch(allowLoopback),
      });
      expect(result.ok).toBe(false);
      expect(result.message).not.toContain('AKIA');
    }
  });
});
