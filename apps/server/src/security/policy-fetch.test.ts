import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testConnection } from '@argus/ai';
import { TargetPolicy } from '@argus/engine';
import { startGzipBombServer } from '@argus/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cappedFetch, policyFetch } from './policy-fetch';

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

  it('refuses a connection to the Argus server itself when DNS rebinds to it, judging the real port', async () => {
    // This test's server plays Argus on 127.0.0.1:port; the first DNS answer is another allowed address.
    let asked = 0;
    const rebindingToSelf = new TargetPolicy({
      allowedTargets: ['127.0.0.0/8'],
      self: [{ host: '127.0.0.1', port }],
      resolve: async () => (asked++ === 0 ? ['127.0.0.2'] : ['127.0.0.1']),
    });
    expect(await refusal(policyFetch(rebindingToSelf)(`http://model.test:${port}/`))).toMatch(
      `model.test (127.0.0.1):${port} is the Argus server itself`,
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

describe('policyFetch: answers larger than the cap', () => {
  const allowLoopback = new TargetPolicy({ allowedTargets: ['127.0.0.1'] });

  it('stops reading a gzip answer once it has inflated past maxResponseBytes, naming the limit', async () => {
    const bomb = await startGzipBombServer();
    try {
      const answer = await policyFetch(allowLoopback, { maxResponseBytes: 1024 * 1024 })(
        `http://127.0.0.1:${bomb.port}/`,
      );
      expect(await refusal(answer.text())).toBe(
        'The answer was larger than 1 MB (counted after decompression), the most this server reads.',
      );
    } finally {
      await bomb.close();
    }
  });

  it("caps the fetch for the server's own model the same way, without the target policy", async () => {
    const bomb = await startGzipBombServer();
    try {
      const answer = await cappedFetch({ maxResponseBytes: 1024 * 1024 })(`http://127.0.0.1:${bomb.port}/`);
      expect(await refusal(answer.text())).toBe(
        'The answer was larger than 1 MB (counted after decompression), the most this server reads.',
      );
    } finally {
      await bomb.close();
    }
  });

  it('three concurrent connection tests against a 1 GiB gzip answer each say it is too large, and memory stays flat', async () => {
    const bomb = await startGzipBombServer();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    try {
      const results = await Promise.all(
        [1, 2, 3].map(() =>
          testConnection(
            {
              provider: 'openai-compatible',
              model: 'm',
              baseUrl: `http://127.0.0.1:${bomb.port}/v1`,
              fetch: policyFetch(allowLoopback),
            },
            { timeoutMs: 120_000 },
          ),
        ),
      );
      peak = Math.max(peak, process.memoryUsage().rss);
      for (const result of results) {
        expect(result.ok).toBe(false);
        expect(result.message).toBe(
          `The model server at http://127.0.0.1:${bomb.port}/v1 answered with more than 8 MB (counted after decompression), the most this server reads from a model; the answer was not read further. Is the base URL a model API?`,
        );
      }
      const grownMiB = (peak - before) / (1024 * 1024);
      console.log(`RSS grew by ${grownMiB.toFixed(0)} MiB at most`);
      expect(grownMiB).toBeLessThan(150);
    } finally {
      clearInterval(sampler);
      await bomb.close();
    }
  }, 30_000);
});
